import { passIf, type CheckModule } from './check.js';

/**
 * Every blocking merge request is merged. A closed blocker still blocks (GitLab: the
 * dependency has to be merged or removed), and so does one the viewer may not see.
 */
export const blockedStatusCheck: CheckModule = {
  identifier: 'BLOCKED_STATUS',
  run: (facts) => passIf(facts.blockers.every((state) => state === 'merged')),
};
