/**
 * The default merge and squash commit messages of one merge request: the project's
 * templates (or GitLab's) filled from the request, its users and, only when a template asks
 * for them, its commits (one `git log`). The merge itself, the widget's editors and the
 * trial merge all write their messages here.
 */
import { listCommits } from '../../../git/index.js';
import type { User } from '../../users/user.js';
import type { MergeRequest } from '../merge-request.js';
import { mergeTemplate, needsCommits, RECENT_COMMITS_LIMIT, renderCommitMessage, squashTemplate, type MessageCommit, type MessageContext, type Person } from './commit-message.js';
import type { CommitTemplates } from './merging.repository.js';

export type MessageSubject = Pick<MergeRequest, 'source_branch' | 'target_branch' | 'title' | 'description' | 'target_full_path' | 'iid' | 'source_project_id'>;

export interface DefaultMessagesInput {
  mergeRequest: MessageSubject;
  templates: CommitTemplates;
  author: User | null;
  /** who merges; null when nobody is known yet (an anonymous viewer of the widget) */
  merger: User | null;
  /** the target repository, holding the request's commits */
  repoPath: string;
  /** the commits' range; without it, templates asking for commits get none */
  target: string | null;
  head: string | null;
  externalUrl: string;
}

const person = (user: User | null): Person | null => (user ? { name: user.name, email: user.email } : null);

/** The placeholders' values for one merge request. Pure. */
export function messageContext(mr: MessageSubject, parts: { author: User | null; merger: User | null; commits: readonly MessageCommit[]; externalUrl: string }): MessageContext {
  return {
    sourceBranch: mr.source_branch,
    targetBranch: mr.target_branch,
    title: mr.title,
    description: mr.description,
    reference: `${mr.target_full_path}!${mr.iid}`,
    localReference: `!${mr.iid}`,
    sourceProjectId: mr.source_project_id,
    url: `${parts.externalUrl}/${mr.target_full_path}/-/merge_requests/${mr.iid}`,
    commits: parts.commits,
    author: person(parts.author),
    mergedBy: person(parts.merger),
    // approvals and reviews arrive with their issues
    approvedBy: [],
    reviewedBy: [],
    issues: null,
  };
}

export async function defaultMessages(input: DefaultMessagesInput): Promise<{ merge: string; squash: string }> {
  const merge = mergeTemplate(input.templates.merge);
  const squash = squashTemplate(input.templates.squash);
  const range = input.target && input.head ? `${input.target}..${input.head}` : null;
  const commits = range && (needsCommits(merge) || needsCommits(squash)) ? ((await listCommits(input.repoPath, { ref: range, limit: RECENT_COMMITS_LIMIT }))?.commits ?? []) : [];
  const context = messageContext(input.mergeRequest, { author: input.author, merger: input.merger, commits, externalUrl: input.externalUrl });
  return { merge: renderCommitMessage(merge, context), squash: renderCommitMessage(squash, context, { squash: true }) };
}
