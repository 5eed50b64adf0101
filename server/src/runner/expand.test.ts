import { describe, expect, it } from 'vitest';
import { expandVariables } from './expand.js';

describe('expandVariables', () => {
  const base = [
    { key: 'CI_SERVER_URL', value: 'https://example.com' },
    { key: 'NAME', value: 'app' },
  ];
  it.each([
    ['$CI_SERVER_URL/x', false, 'https://example.com/x'],
    ['${NAME}-v1', false, 'app-v1'],
    ['$NAME$NAME', false, 'appapp'],
    ['cost $$5', false, 'cost $5'],
    ['$UNKNOWN!', false, '!'],
    ['$SELF', false, ''],
    ['$NAME', true, '$NAME'],
    ['no dollar', false, 'no dollar'],
  ])('%s (raw %s) → %s', (value, raw, expected) => {
    expect(expandVariables([...base, { key: 'SELF', value, raw }]).at(-1)!.value).toBe(expected);
  });
});
