import { describe, expect, it } from 'vitest';
import { titleRegexCheck } from './title-regex.js';
import { mergeableFacts } from './test-facts.js';

describe('TITLE_REGEX', () => {
  it.each([
    ['no pattern', null, 'anything', 'INACTIVE'],
    ['a matching title', '^(feat|fix): ', 'feat: the widget', 'SUCCESS'],
    ['a title that does not match', '^(feat|fix): ', 'The widget', 'FAILED'],
    ['a match anywhere in the title', 'JIRA-\\d+', 'Widget for JIRA-12', 'SUCCESS'],
    ['case matters unless the pattern says otherwise', '^feat', 'Feat: x', 'FAILED'],
    ['an inline flag', '(?i)^feat', 'Feat: x', 'SUCCESS'],
    ['a pattern RE2 cannot compile stays out of the way', '(?<=a)b', 'ab', 'INACTIVE'],
  ] as const)('%s → %s', (_name, titleRegex, title, expected) => {
    expect(titleRegexCheck.run(mergeableFacts({ titleRegex, title }))).toBe(expected);
  });

  it('runs in linear time on a pattern that hangs a backtracking engine', () => {
    const started = performance.now();
    expect(titleRegexCheck.run(mergeableFacts({ titleRegex: '^(a+)+$', title: `${'a'.repeat(250)}b` }))).toBe('FAILED');
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
