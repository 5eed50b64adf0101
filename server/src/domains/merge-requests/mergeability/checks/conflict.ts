import { PENDING_MERGE_STATUSES } from '../facts.js';
import type { CheckModule } from './check.js';

/** The trial merge of head into the target tip is clean (merge_status can_be_merged). */
export const conflictCheck: CheckModule = {
  identifier: 'CONFLICT',
  run(facts) {
    if (PENDING_MERGE_STATUSES.has(facts.mergeStatus)) return 'CHECKING';
    return facts.mergeStatus === 'can_be_merged' ? 'SUCCESS' : 'FAILED';
  },
};
