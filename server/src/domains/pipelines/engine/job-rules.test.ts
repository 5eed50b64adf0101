import { describe, expect, it } from 'vitest';
import { allowedToFailWithCode, isAutoCancelable, isRetryable, playAction, shouldAutoRetry } from './job-rules.js';

describe('automatic retry (GitLab’s retry keyword)', () => {
  it.each([
    { retry: undefined, so: 0, reason: 'script_failure', code: 1, expected: false },
    { retry: { max: 2, when: ['always'] }, so: 0, reason: 'script_failure', code: 1, expected: true },
    { retry: { max: 2, when: ['always'] }, so: 1, reason: 'script_failure', code: 1, expected: true },
    { retry: { max: 2, when: ['always'] }, so: 2, reason: 'script_failure', code: 1, expected: false },
    { retry: { max: 1, when: [] }, so: 0, reason: 'unknown_failure', code: null, expected: true },
    { retry: { max: 1, when: ['runner_system_failure'] }, so: 0, reason: 'script_failure', code: 1, expected: false },
    { retry: { max: 1, when: ['runner_system_failure', 'script_failure'] }, so: 0, reason: 'script_failure', code: 1, expected: true },
    { retry: { max: 1, when: ['always'], exitCodes: [137] }, so: 0, reason: 'script_failure', code: 1, expected: false },
    { retry: { max: 1, when: ['always'], exitCodes: [137] }, so: 0, reason: 'script_failure', code: 137, expected: true },
    { retry: { max: 0, when: ['always'] }, so: 0, reason: 'script_failure', code: 1, expected: false },
  ])('$retry after $so retries, $reason exit $code → $expected', ({ retry, so, reason, code, expected }) => {
    expect(shouldAutoRetry(retry, so, reason, code)).toBe(expected);
  });
});

describe('job actions', () => {
  it('allow_failure exit codes', () => {
    expect(allowedToFailWithCode([1, 137], 137)).toBe(true);
    expect(allowedToFailWithCode([1, 137], 2)).toBe(false);
    expect(allowedToFailWithCode(null, 1)).toBe(false);
    expect(allowedToFailWithCode([1], null)).toBe(false);
  });

  it.each([
    { status: 'success', retried: false, expected: true },
    { status: 'failed', retried: false, expected: true },
    { status: 'canceled', retried: false, expected: true },
    { status: 'failed', retried: true, expected: false },
    { status: 'running', retried: false, expected: false },
    { status: 'manual', retried: false, expected: false },
    { status: 'skipped', retried: false, expected: false },
  ] as const)('retryable: $status (retried $retried) → $expected', ({ status, retried, expected }) => {
    expect(isRetryable({ status, retried })).toBe(expected);
  });

  it.each(['pipeline_loop_detected', 'reached_max_descendant_pipelines_depth'])('a trigger job failed with %s is not retryable', (reason) => {
    expect(isRetryable({ status: 'failed', retried: false, failure_reason: reason })).toBe(false);
    expect(isRetryable({ status: 'failed', retried: false, failure_reason: 'insufficient_bridge_permissions' })).toBe(true);
  });

  it.each([
    { status: 'manual', when: 'manual', expected: 'enqueue' },
    { status: 'scheduled', when: 'delayed', expected: 'enqueue' },
    { status: 'failed', when: 'manual', expected: 'retry' },
    { status: 'success', when: 'manual', expected: 'retry' },
    { status: 'failed', when: 'on_success', expected: null },
    { status: 'pending', when: 'manual', expected: null },
    { status: 'created', when: 'manual', expected: null },
  ] as const)('play: $status ($when) → $expected', ({ status, when, expected }) => {
    expect(playAction({ status, when, retried: false })).toBe(expected);
  });

  it.each([
    { jobs: [{ status: 'pending', interruptible: null }], expected: true },
    { jobs: [{ status: 'running', interruptible: true }], expected: true },
    { jobs: [{ status: 'running', interruptible: null }], expected: false },
    { jobs: [{ status: 'success', interruptible: false }, { status: 'created', interruptible: true }], expected: false },
    { jobs: [{ status: 'success', interruptible: true }, { status: 'created', interruptible: false }], expected: true },
  ] as const)('auto-cancel of an older pipeline: $jobs → $expected', ({ jobs, expected }) => {
    expect(isAutoCancelable(jobs)).toBe(expected);
  });
});
