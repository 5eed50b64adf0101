import type { MergeabilityCheck, MergeabilityCheckIdentifier, MergeabilityCheckStatus } from '@tributary/contracts';
import type { MergeabilityFacts } from '../facts.js';

/**
 * One merge check (GitLab's Mergeability::Check*Service): an identifier from the shared
 * contract and a pure function of the facts. INACTIVE means the project does not ask for
 * it; CHECKING that git has not answered yet.
 */
export interface CheckModule {
  identifier: MergeabilityCheckIdentifier;
  run(facts: MergeabilityFacts): MergeabilityCheckStatus;
}

export const passIf = (ok: boolean): MergeabilityCheckStatus => (ok ? 'SUCCESS' : 'FAILED');

export function runCheck(check: CheckModule, facts: MergeabilityFacts): MergeabilityCheck {
  return { identifier: check.identifier, status: check.run(facts) };
}
