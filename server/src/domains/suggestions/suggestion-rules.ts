/**
 * The rules of suggested changes (GitLab's Suggestible, Suggestion#inapplicable_reason,
 * Gitlab::Diff::Suggestion, Gitlab::Suggestions::FileSuggestion and CommitMessage). Pure:
 * the service reads blobs and refs and hands their text here. The line rules that the web app's
 * preview shares (ranges, lines, to_content) live in @tributary/contracts' suggestions.
 */
import { MAX_LINES_CONTEXT, splitLines, type SuggestionLineRange as LineRange } from '@tributary/contracts';

export { linesBetween, MAX_LINES_CONTEXT, splitLines, suggestionRange, toContent, type SuggestionLineRange as LineRange } from '@tributary/contracts';

/** GitLab's wording, word for word (app/models/suggestion.rb, lib/api/suggestions.rb, suggestion_set.rb). */
export const SUGGESTION_MESSAGES = {
  applied: "Can't apply this suggestion.",
  merged: 'This merge request was merged. To apply this suggestion, edit this file directly.',
  closed: 'This merge request is closed. To apply this suggestion, edit this file directly.',
  branchDeleted: "Can't apply as the source branch was deleted.",
  oversized: 'Cannot apply as this suggestion spans more than %{max_lines} lines.',
  outdatedLine: "Can't apply as this line was changed in a more recent version.",
  outdatedLines: "Can't apply as these lines were changed in a more recent version.",
  sameContent: 'This suggestion already matches its content.',
  notebook: "This file was modified for readability, and can't accept suggestions. Edit it directly.",
  fileNotFound: 'A file was not found.',
  differentBranches: 'Suggestions must all be on the same branch.',
  overlap: 'Suggestions are not applicable as their lines cannot overlap.',
  notFound: 'Suggestion is not applicable as the suggestion was not found.',
  notFoundBatch: 'Suggestions are not applicable as one or more suggestions were not found.',
} as const;

/** GitLab's Gitlab::Suggestions::CommitMessage::DEFAULT_SUGGESTION_COMMIT_MESSAGE. */
export const DEFAULT_COMMIT_MESSAGE = 'Apply %{suggestions_count} suggestion(s) to %{files_count} file(s)\n\n%{co_authored_by}';

export interface SuggestionFacts {
  applied: boolean;
  mergeRequestState: string;
  sourceBranchExists: boolean;
  linesAbove: number;
  linesBelow: number;
  /** the lines' text when the comment was made */
  fromContent: string;
  toContent: string;
  /** the same lines' text on the source branch now; null when the file is gone */
  currentContent: string | null;
  filePath: string;
}

/**
 * Suggestion#inapplicable_reason, in GitLab's order: why this suggestion cannot be applied
 * now, or null when it can. The message is GitLab's (a %{max_lines} placeholder is filled).
 */
export function inapplicableReason(facts: SuggestionFacts): string | null {
  if (facts.applied) return SUGGESTION_MESSAGES.applied;
  if (facts.mergeRequestState === 'merged') return SUGGESTION_MESSAGES.merged;
  if (facts.mergeRequestState === 'closed') return SUGGESTION_MESSAGES.closed;
  if (!facts.sourceBranchExists) return SUGGESTION_MESSAGES.branchDeleted;
  if (facts.linesAbove > MAX_LINES_CONTEXT || facts.linesBelow > MAX_LINES_CONTEXT) return SUGGESTION_MESSAGES.oversized.replace('%{max_lines}', String(MAX_LINES_CONTEXT));
  if (facts.currentContent !== facts.fromContent) {
    return facts.linesAbove === 0 && facts.linesBelow === 0 ? SUGGESTION_MESSAGES.outdatedLine : SUGGESTION_MESSAGES.outdatedLines;
  }
  if (facts.fromContent === facts.toContent) return SUGGESTION_MESSAGES.sameContent;
  if (facts.filePath.endsWith('ipynb')) return SUGGESTION_MESSAGES.notebook;
  return null;
}

/** FileSuggestion#line_conflict?: whether any two ranges of one file share a line. */
export function rangesOverlap(ranges: readonly LineRange[]): boolean {
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  return sorted.some((range, i) => i > 0 && range.from <= sorted[i - 1]!.to);
}

/**
 * FileSuggestion#new_content: every range of the file replaced by its suggestion's text.
 * The ranges must not overlap (checked first with rangesOverlap).
 */
export function applyToContent(content: string, changes: readonly (LineRange & { toContent: string })[]): string {
  const lines = splitLines(content);
  const sorted = [...changes].sort((a, b) => a.from - b.from);
  const out: string[] = [];
  let next = 1;
  for (const change of sorted) {
    out.push(...lines.slice(next - 1, change.from - 1), change.toContent);
    next = change.to + 1;
  }
  out.push(...lines.slice(next - 1));
  return out.join('');
}

export interface CommitMessageValues {
  branchName: string;
  filePaths: readonly string[];
  projectName: string;
  projectPath: string;
  userFullName: string;
  username: string;
  suggestionsCount: number;
  /** the suggestions' authors other than the one applying them */
  coAuthors: readonly { name: string; email: string }[];
}

/**
 * Gitlab::Suggestions::CommitMessage#message: the caller's message, else GitLab's default,
 * with its placeholders filled. GitLab leaves the default's blank trailer line when there are
 * no co-authors; git would strip it, so it is trimmed here.
 */
export function suggestionCommitMessage(custom: string | undefined, values: CommitMessageValues): string {
  const template = custom !== undefined && custom.trim() !== '' ? custom : DEFAULT_COMMIT_MESSAGE;
  const placeholders: Record<string, string> = {
    branch_name: values.branchName,
    files_count: String(values.filePaths.length),
    file_paths: [...values.filePaths].sort().join(', '),
    project_name: values.projectName,
    project_path: values.projectPath,
    user_full_name: values.userFullName,
    username: values.username,
    suggestions_count: String(values.suggestionsCount),
    co_authored_by: values.coAuthors.map((author) => `Co-authored-by: ${author.name} <${author.email}>`).join('\n'),
  };
  const message = template.replace(/%\{(\w+)\}/g, (whole, key: string) => placeholders[key] ?? whole);
  return custom !== undefined && custom.trim() !== '' ? message : message.trimEnd();
}
