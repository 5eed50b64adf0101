import { describe, expect, it } from 'vitest';
import { parsePushOptions } from './hook-routes.js';

describe('push options reported by the post-receive hook', () => {
  it.each([
    { body: { pushOptions: ['ci.skip'] }, expected: ['ci.skip'] },
    { body: { pushOptions: ['ci.variable=A=1', 'merge_request.create'] }, expected: ['ci.variable=A=1', 'merge_request.create'] },
    { body: {}, expected: [] },
    { body: { pushOptions: 'ci.skip' }, expected: [] },
    { body: { pushOptions: [1, null, 'ci.skip', 'x'.repeat(1001)] }, expected: ['ci.skip'] },
    { body: null, expected: [] },
  ])('$body → $expected', ({ body, expected }) => {
    expect(parsePushOptions(body)).toEqual(expected);
  });

  it('keeps at most 100 options', () => {
    expect(parsePushOptions({ pushOptions: Array.from({ length: 150 }, (_, i) => `o${i}`) })).toHaveLength(100);
  });
});
