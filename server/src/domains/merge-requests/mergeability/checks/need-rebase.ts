import { PENDING_MERGE_STATUSES } from '../facts.js';
import type { CheckModule } from './check.js';

/**
 * Fast-forward and semi-linear projects merge only a head that contains the target tip
 * (GitLab's ff_merge_must_be_possible? and should_be_rebased?): any commit on the target
 * that the head lacks fails it. Counted by the trial merge, so CHECKING while it runs.
 */
export const needRebaseCheck: CheckModule = {
  identifier: 'NEED_REBASE',
  run(facts) {
    if (facts.mergeMethod === 'merge') return 'INACTIVE';
    if (PENDING_MERGE_STATUSES.has(facts.mergeStatus)) return 'CHECKING';
    // No count: the trial merge could not run (a branch is missing); COMMITS_STATUS says why.
    if (facts.divergedCommitsCount === null) return 'INACTIVE';
    return facts.divergedCommitsCount > 0 ? 'FAILED' : 'SUCCESS';
  },
};
