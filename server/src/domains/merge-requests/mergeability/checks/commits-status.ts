import type { CheckModule } from './check.js';

/** "Source branch exists and contains commits." CHECKING until the first version is recorded. */
export const commitsStatusCheck: CheckModule = {
  identifier: 'COMMITS_STATUS',
  run(facts) {
    if (!facts.sourceBranchExists) return 'FAILED';
    if (facts.commitsCount === null) return 'CHECKING';
    return facts.commitsCount > 0 ? 'SUCCESS' : 'FAILED';
  },
};
