/** The merge options as the form offers them and the sidebar states them: one wording for both. */
export const MERGE_OPTION = {
  deleteSourceBranch: 'Delete source branch when merge request is accepted',
  squash: 'Squash commits when merge request is accepted',
} as const;

/**
 * The sidebar's squash line. Before the merge it states what will happen (the project's
 * 'always' and 'never' included, GitLab's squash_on_merge); after it, what did happen: a merge
 * that squashed has a squash commit, whatever the request's own option said.
 */
export function squashOptionText(mr: { state: string; squash: boolean; squash_on_merge?: boolean; squash_commit_sha?: string | null }): string {
  if (mr.state === 'merged') return mr.squash_commit_sha ? 'Commits were squashed into one when merged' : 'Commits were kept as they are';
  return (mr.squash_on_merge ?? mr.squash) ? MERGE_OPTION.squash : 'Commits are kept as they are';
}
