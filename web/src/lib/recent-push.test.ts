import { describe, expect, it } from 'vitest';
import type { Branch } from './gitlab-types';
import { RECENT_PUSH_WINDOW_MS, recentPushCandidates } from './recent-push';

const now = Date.parse('2026-05-01T12:00:00Z');
const branch = (name: string, minutesAgo: number, isDefault = false) =>
  ({ name, default: isDefault, commit: { committed_date: new Date(now - minutesAgo * 60_000).toISOString() } }) as Branch;

describe('recentPushCandidates', () => {
  it('picks non-default branches updated within the window, newest first', () => {
    const branches = [branch('main', 1, true), branch('old', RECENT_PUSH_WINDOW_MS / 60_000 + 1), branch('a', 30), branch('b', 5)];
    expect(recentPushCandidates(branches, now).map((b) => b.name)).toEqual(['b', 'a']);
  });

  it('checks at most a few branches', () => {
    const branches = ['a', 'b', 'c', 'd', 'e'].map((name, i) => branch(name, i));
    expect(recentPushCandidates(branches, now, 2).map((b) => b.name)).toEqual(['a', 'b']);
  });
});
