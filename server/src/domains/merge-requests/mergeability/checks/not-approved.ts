import { passIf, type CheckModule } from './check.js';

/**
 * "All required approvals must be given" (GitLab's CheckApprovedService): FAILED until every
 * approval rule is approved. INACTIVE while no rule asks for an approval and nothing is missing.
 * The approval state comes from the approvals domain (app.ts).
 */
export const notApprovedCheck: CheckModule = {
  identifier: 'NOT_APPROVED',
  run(facts) {
    if (!facts.approvalNeeded && facts.approved) return 'INACTIVE';
    return passIf(facts.approved);
  },
};
