import { describe, expect, it } from 'vitest';
import { stuckFailureReason } from './stuck-jobs.js';

const now = new Date('2026-01-01T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('stuckFailureReason (GitLab’s StuckCiJobsWorker for running jobs)', () => {
  it.each([
    [true, ago(60), null],
    [true, ago(3599), null],
    [true, ago(3600), 'stuck_or_timeout_failure'],
    [false, ago(5), 'runner_system_failure'],
    [false, ago(7200), 'runner_system_failure'],
  ] as const)('runner exists %s, last update %s → %s', (runnerExists, updatedAt, expected) => {
    expect(stuckFailureReason({ runner_exists: runnerExists, updated_at: updatedAt }, now)).toBe(expected);
  });
});
