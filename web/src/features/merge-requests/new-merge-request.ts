/**
 * What the new merge request form starts with (GitLab's MergeRequests::BuildService): with
 * one commit, its title and body; with more, the source branch name made readable. And the
 * options a project's settings preselect. Pure.
 */
import type { CommitSummary, Project } from '../../lib/gitlab-types';
import type { MergeRequestFormValues } from './MergeRequestForm';

/** `feature/add-login_page` → `Feature/add login page` (GitLab: source_branch.humanize). */
export function humanizeBranch(branch: string): string {
  const words = branch.replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function messageBody(commit: CommitSummary): string {
  const newline = commit.message.indexOf('\n');
  return newline === -1 ? '' : commit.message.slice(newline + 1).trim();
}

export function defaultTitleAndDescription(sourceBranch: string, commits: readonly CommitSummary[]): { title: string; description: string } {
  const [only] = commits;
  if (commits.length === 1 && only) return { title: only.title, description: messageBody(only) };
  return { title: humanizeBranch(sourceBranch), description: '' };
}

export function initialFormValues(target: Pick<Project, 'remove_source_branch_after_merge' | 'squash_option'>, targetBranch: string): MergeRequestFormValues {
  return {
    title: '',
    description: '',
    assignees: [],
    reviewers: [],
    targetBranch,
    // GitLab preselects "delete source branch" unless the project turned the default off.
    removeSourceBranch: target.remove_source_branch_after_merge ?? true,
    squash: target.squash_option === 'always' || target.squash_option === 'default_on',
    allowCollaboration: true,
  };
}
