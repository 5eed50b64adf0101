import { compileTitleRegex, titleMatches } from '../../../projects/title-regex.js';
import { passIf, type CheckModule } from './check.js';

/**
 * The title (without its draft prefix) matches the project's pattern, anywhere in it, as
 * GitLab's CheckMergeRequestTitleRegexService does. INACTIVE without a pattern. A stored
 * pattern always compiles (the project settings refuse others); should one not, the check
 * stays out of the way rather than blocking every merge.
 */
export const titleRegexCheck: CheckModule = {
  identifier: 'TITLE_REGEX',
  run(facts) {
    if (facts.titleRegex === null) return 'INACTIVE';
    const compiled = compileTitleRegex(facts.titleRegex);
    if ('error' in compiled) return 'INACTIVE';
    return passIf(titleMatches(compiled.pattern, facts.title));
  },
};
