import { passIf, type CheckModule } from './check.js';

/**
 * "Change requests must be approved by the requesting user" (GitLab's
 * CheckRequestedChangesService): FAILED while a reviewer's state is requested_changes, until
 * that reviewer approves or is removed. INACTIVE on a merge request without reviewers.
 */
export const requestedChangesCheck: CheckModule = {
  identifier: 'REQUESTED_CHANGES',
  run(facts) {
    if (!facts.hasReviewers) return 'INACTIVE';
    return passIf(!facts.changesRequested);
  },
};
