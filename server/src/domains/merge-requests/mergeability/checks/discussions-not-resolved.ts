import { passIf, type CheckModule } from './check.js';

/**
 * "All threads must be resolved", when the project asks for it (INACTIVE otherwise).
 * The count of unresolved resolvable threads comes from the notes domain (app.ts).
 */
export const discussionsNotResolvedCheck: CheckModule = {
  identifier: 'DISCUSSIONS_NOT_RESOLVED',
  run(facts) {
    if (!facts.discussionsMustBeResolved) return 'INACTIVE';
    return passIf(facts.unresolvedDiscussions === 0);
  },
};
