import { describe, expect, it } from 'vitest';
import { splitRef } from './pipeline-schedules.service.js';

describe('splitRef', () => {
  it.each([
    ['refs/heads/main', { name: 'main', tag: false }],
    ['refs/heads/feature/x', { name: 'feature/x', tag: false }],
    ['refs/tags/v1.0', { name: 'v1.0', tag: true }],
    ['refs/heads/', null],
    ['refs/tags/', null],
    ['main', null],
    ['refs/merge-requests/1/head', null],
  ] as const)('%s → %j', (ref, expected) => expect(splitRef(ref)).toEqual(expected));
});
