import { passIf, type CheckModule } from './check.js';

/** The request is open. `locked` is open too: it is the state a merge in progress holds. */
export const notOpenCheck: CheckModule = {
  identifier: 'NOT_OPEN',
  run: (facts) => passIf(facts.state === 'opened' || facts.state === 'locked'),
};
