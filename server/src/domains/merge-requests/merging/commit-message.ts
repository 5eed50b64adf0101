/**
 * Default merge and squash commit messages from a project's templates, with GitLab's
 * placeholders and its rules for empty ones (lib/gitlab/merge_requests/message_generator.rb,
 * doc/user/project/merge_requests/commit_templates.md). Pure: the service resolves what the
 * template uses (placeholdersIn) and passes the values in.
 */

/** GitLab's default merge commit template; with no closing issues it gives
 *  "Merge branch 'src' into 'tgt'\n\n<title>\n\nSee merge request <reference>". */
export const DEFAULT_MERGE_COMMIT_TEMPLATE = "Merge branch '%{source_branch}' into '%{target_branch}'\n\n%{title}\n\n%{issues}\n\nSee merge request %{reference}";
export const DEFAULT_SQUASH_COMMIT_TEMPLATE = '%{title}';

/** all_commits and co_authored_by look at this many of the newest commits. */
export const RECENT_COMMITS_LIMIT = 100;
/** all_commits shows only the title of a commit whose message exceeds this. */
const MAX_COMMIT_BODY_BYTES = 100 * 1024;

export const PLACEHOLDERS = [
  'source_branch',
  'target_branch',
  'title',
  'issues',
  'description',
  'reference',
  'local_reference',
  'source_project_id',
  'first_commit',
  'first_multiline_commit',
  'first_multiline_commit_description',
  'url',
  'reviewed_by',
  'approved_by',
  'merged_by',
  'merge_request_author',
  'co_authored_by',
  'all_commits',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/** Placeholders that need the merge request's commits (one `git log`). */
const COMMIT_PLACEHOLDERS: ReadonlySet<Placeholder> = new Set(['first_commit', 'first_multiline_commit', 'first_multiline_commit_description', 'co_authored_by', 'all_commits']);

export interface Person {
  name: string;
  email: string;
}

export interface MessageCommit {
  message: string;
  author_name: string;
  author_email: string;
  parent_ids: string[];
}

export interface MessageContext {
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description: string;
  /** `group/project!1` */
  reference: string;
  /** `!1` */
  localReference: string;
  sourceProjectId: number | null;
  url: string;
  /** the merge request's commits, newest first (at most RECENT_COMMITS_LIMIT) */
  commits: readonly MessageCommit[];
  author: Person | null;
  mergedBy: Person | null;
  approvedBy: readonly Person[];
  reviewedBy: readonly Person[];
  /** "Closes #1 and #2"; issues arrive with a later issue, so null today */
  issues: string | null;
}

const PATTERN = new RegExp(`%\\{(${PLACEHOLDERS.join('|')})\\}`, 'g');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isBlank = (value: string | null) => value === null || value.trim() === '';
const trailer = (label: string, people: readonly Person[]) => people.map((person) => `${label}: ${person.name} <${person.email}>`).join('\n');

/** The placeholders a template uses, each once, in order of appearance. */
export function placeholdersIn(template: string): Placeholder[] {
  return [...new Set([...template.matchAll(PATTERN)].map((match) => match[1] as Placeholder))];
}

/** Whether rendering the template needs the merge request's commits. */
export function needsCommits(template: string): boolean {
  return placeholdersIn(template).some((name) => COMMIT_PLACEHOLDERS.has(name));
}

const isMerge = (commit: MessageCommit) => commit.parent_ids.length > 1;

/** GitLab's first_multiline_commit: the oldest non-merge commit whose message has a body. */
function firstMultiline(commits: readonly MessageCommit[]): MessageCommit | undefined {
  return [...commits].reverse().find((commit) => !isMerge(commit) && commit.message.trim().includes('\n'));
}

function value(name: Placeholder, ctx: MessageContext, squash: boolean): string | null {
  switch (name) {
    case 'source_branch':
      return ctx.sourceBranch;
    case 'target_branch':
      return ctx.targetBranch;
    case 'title':
      return ctx.title;
    case 'issues':
      return ctx.issues;
    case 'description':
      return ctx.description;
    case 'reference':
      return ctx.reference;
    case 'local_reference':
      return ctx.localReference;
    case 'source_project_id':
      return ctx.sourceProjectId === null ? null : String(ctx.sourceProjectId);
    case 'first_commit':
      return ctx.commits.at(-1)?.message.trim() ?? null;
    case 'first_multiline_commit':
      return firstMultiline(ctx.commits)?.message.trim() || ctx.title;
    case 'first_multiline_commit_description': {
      const message = firstMultiline(ctx.commits)?.message.trim();
      return message === undefined ? null : message.slice(message.indexOf('\n') + 1).trim();
    }
    case 'url':
      return ctx.url;
    case 'reviewed_by':
      return trailer('Reviewed-by', ctx.reviewedBy);
    case 'approved_by':
      return trailer('Approved-by', ctx.approvedBy);
    case 'merged_by':
      return ctx.mergedBy ? `${ctx.mergedBy.name} <${ctx.mergedBy.email}>` : null;
    case 'merge_request_author':
      return ctx.author ? `${ctx.author.name} <${ctx.author.email}>` : null;
    case 'co_authored_by': {
      // The commit's own author is not a co-author: the request's author for a squash, the merger otherwise.
      const self = (squash ? ctx.author : ctx.mergedBy)?.email;
      const authors = new Map<string, string>();
      for (const commit of ctx.commits) if (commit.author_email !== self) authors.set(commit.author_email, commit.author_name);
      return [...authors].map(([email, name]) => `Co-authored-by: ${name} <${email}>`).join('\n');
    }
    case 'all_commits':
      return ctx.commits
        .filter((commit) => !isMerge(commit))
        .map((commit) =>
          Buffer.byteLength(commit.message) > MAX_COMMIT_BODY_BYTES
            ? `* ${commit.message.trim().split('\n')[0]}\n\n-- Skipped commit body exceeding 100KiB in size.`
            : `* ${commit.message.trim()}`,
        )
        .join('\n\n');
  }
}

/**
 * Replaces the placeholders in one pass (values are never re-read as placeholders). A line
 * holding only an empty placeholder is removed, and with it the blank line before it when a
 * blank line or the end follows (so "A\n\n%{issues}\n\nB" becomes "A\n\nB"), as GitLab does.
 */
export function renderCommitMessage(template: string, ctx: MessageContext, options: { squash?: boolean } = {}): string {
  let message = template.replace(/\r/g, '');
  const values = new Map<string, string | null>(placeholdersIn(message).map((name) => [`%{${name}}`, value(name, ctx, options.squash ?? false)]));
  const empty = [...values].filter(([, text]) => isBlank(text)).map(([token]) => escape(token));
  if (empty.length > 0) {
    const names = empty.join('|');
    // Ruby's \Z: the end of the text, or just before a final newline.
    message = message.replace(new RegExp(`\\n\\n(?:${names})(\\n\\n|(?=\\n?(?![\\s\\S])))`, 'g'), '$1');
    message = message.replace(new RegExp(`^(?:${names})\\n`, 'gm'), '');
  }
  return message.replace(PATTERN, (token) => values.get(token) ?? '');
}

/** The template the project set, or GitLab's default when it set none. */
export function mergeTemplate(projectTemplate: string | null | undefined): string {
  return projectTemplate?.trim() ? projectTemplate : DEFAULT_MERGE_COMMIT_TEMPLATE;
}

export function squashTemplate(projectTemplate: string | null | undefined): string {
  return projectTemplate?.trim() ? projectTemplate : DEFAULT_SQUASH_COMMIT_TEMPLATE;
}
