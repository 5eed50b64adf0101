import { n, t } from '@tributary/contracts/i18n';
import type { MergeRequestStateName } from '@tributary/contracts/merge-widget';
import { MSG } from './messages';

/**
 * The summary of commits to be added (GitLab's added_commit_message.vue):
 * "2 commits and 1 merge commit will be added to main." before the merge, "Changes merged
 * into main with 1a2b3c4d." after it. `message` keeps %{targetBranch} and
 * %{mergeCommitSha} for the caller to fill with links; the other pieces are text.
 */
export interface CommitSummary {
  message: string;
  values: { commitCount?: string; mergeCommitCount?: string; squashedCommits?: string };
}

export function commitSummary(input: { state: MergeRequestStateName; ffOnly: boolean; squash: boolean; commitCount: number }): CommitSummary {
  if (input.state === 'closed') return { message: MSG.notMergedInto, values: {} };
  if (input.state === 'merged') {
    return { message: MSG.mergedInto, values: { squashedCommits: input.squash ? t(MSG.commitsWereSquashed) : '' } };
  }
  // A squash adds one commit (a squash commit count of 1 is shown when squashing).
  const added = input.squash ? 1 : input.commitCount;
  const commitCount = n(MSG.commitOne, MSG.commitMany, added);
  if (input.ffOnly) return { message: MSG.willBeAddedFf, values: { commitCount } };
  return {
    message: MSG.willBeAdded,
    values: {
      commitCount,
      mergeCommitCount: t(MSG.oneMergeCommit),
      squashedCommits: input.squash ? n(MSG.squashesOne, MSG.squashesMany, input.commitCount) : '',
    },
  };
}
