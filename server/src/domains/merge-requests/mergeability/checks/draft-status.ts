import { passIf, type CheckModule } from './check.js';

/** Not a draft (title prefixed `Draft:`, `[Draft]` or `(Draft)`; see draft.ts). */
export const draftStatusCheck: CheckModule = {
  identifier: 'DRAFT_STATUS',
  run: (facts) => passIf(!facts.draft),
};
