import { describe, expect, it } from 'vitest';
import type { PushEvent } from './gitlab-types';
import { RECENT_PUSH_WINDOW_MS, recentPushCandidates } from './recent-push';

const now = Date.parse('2026-05-01T12:00:00Z');
let id = 0;
const push = (ref: string, minutesAgo: number, action: PushEvent['push_data']['action'] = 'pushed', refType: 'branch' | 'tag' = 'branch') =>
  ({
    id: ++id,
    project_id: 1,
    action_name: 'pushed to',
    author_id: 1,
    created_at: new Date(now - minutesAgo * 60_000).toISOString(),
    push_data: { action, ref_type: refType, ref, commit_from: null, commit_to: null },
  }) as PushEvent;

describe('recentPushCandidates', () => {
  it('picks branches pushed within the window, newest first, once each', () => {
    const events = [push('a', 30), push('b', 5), push('a', 10), push('old', RECENT_PUSH_WINDOW_MS / 60_000 + 1)];
    expect(recentPushCandidates(events, { now, defaultBranch: 'main' }).map((p) => p.branch)).toEqual(['b', 'a']);
  });

  it('skips the default branch, tags, and branches deleted since their push', () => {
    const events = [push('main', 1), push('v1', 1, 'created', 'tag'), push('gone', 2, 'removed'), push('gone', 3), push('kept', 4)];
    expect(recentPushCandidates(events, { now, defaultBranch: 'main' }).map((p) => p.branch)).toEqual(['kept']);
  });

  it('checks at most a few branches', () => {
    const events = ['a', 'b', 'c', 'd'].map((ref, i) => push(ref, i));
    expect(recentPushCandidates(events, { now, defaultBranch: null, limit: 2 }).map((p) => p.branch)).toEqual(['a', 'b']);
  });
});
