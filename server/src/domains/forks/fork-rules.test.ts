import { describe, expect, it } from 'vitest';
import { forkVisibility } from './fork-rules.js';

describe('forkVisibility', () => {
  it.each([
    ['defaults to the source', { source: 'public', namespace: null }, 'public'],
    ['a private source gives a private fork', { source: 'private', namespace: null }, 'private'],
    ['a request below the source is kept', { requested: 'private', source: 'public', namespace: null }, 'private'],
    ['a request above the source is lowered to it', { requested: 'public', source: 'internal', namespace: null }, 'internal'],
    ['the group bounds it too', { source: 'public', namespace: 'internal' }, 'internal'],
    ['the lowest of the three wins', { requested: 'internal', source: 'public', namespace: 'private' }, 'private'],
  ] as const)('%s', (_name, input, expected) => {
    expect(forkVisibility(input)).toBe(expected);
  });
});
