/**
 * The default merge and squash commit messages of one merge request: the project's
 * templates (or GitLab's) filled from the request, its users and, only when a template asks
 * for them, its commits (one `git log`).
 */
import { listCommits } from '../../../git/index.js';
import type { User } from '../../users/user.js';
import type { MergeRequest } from '../merge-request.js';
import { mergeTemplate, needsCommits, RECENT_COMMITS_LIMIT, renderCommitMessage, squashTemplate, type MessageContext, type Person } from './commit-message.js';
import type { CommitTemplates } from './merging.repository.js';

export interface DefaultMessagesInput {
  mergeRequest: MergeRequest;
  templates: CommitTemplates;
  author: User | null;
  merger: User;
  /** the target repository, holding the request's commits */
  repoPath: string;
  target: string;
  head: string;
  externalUrl: string;
}

const person = (user: User | null): Person | null => (user ? { name: user.name, email: user.email } : null);

export async function defaultMessages(input: DefaultMessagesInput): Promise<{ merge: string; squash: string }> {
  const { mergeRequest: mr } = input;
  const merge = mergeTemplate(input.templates.merge);
  const squash = squashTemplate(input.templates.squash);
  const commits =
    needsCommits(merge) || needsCommits(squash) ? ((await listCommits(input.repoPath, { ref: `${input.target}..${input.head}`, limit: RECENT_COMMITS_LIMIT }))?.commits ?? []) : [];
  const context: MessageContext = {
    sourceBranch: mr.source_branch,
    targetBranch: mr.target_branch,
    title: mr.title,
    description: mr.description,
    reference: `${mr.target_full_path}!${mr.iid}`,
    localReference: `!${mr.iid}`,
    sourceProjectId: mr.source_project_id,
    url: `${input.externalUrl}/${mr.target_full_path}/-/merge_requests/${mr.iid}`,
    commits,
    author: person(input.author),
    mergedBy: person(input.merger),
    // approvals and reviews arrive with their issues
    approvedBy: [],
    reviewedBy: [],
    issues: null,
  };
  return { merge: renderCommitMessage(merge, context), squash: renderCommitMessage(squash, context, { squash: true }) };
}
