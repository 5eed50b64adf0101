import { describe, expect, it } from 'vitest';
import { failureMessage, formatDuration, stageStatus } from './format';

describe('formatDuration', () => {
  it.each([
    [null, '—'],
    [0, '00:00:00'],
    [65.4, '00:01:05'],
    [3725, '01:02:05'],
  ])('%j → %s', (seconds, text) => expect(formatDuration(seconds)).toBe(text));
});

describe('failureMessage', () => {
  it.each([
    [undefined, 'There is an unknown failure, please try again'],
    ['stuck_or_timeout_failure', 'There has been a timeout failure or the job got stuck. Check your timeout limits or try again'],
    ['script_failure', 'script failure'],
  ])('%s → %s', (reason, text) => expect(failureMessage(reason)).toBe(text));
});

describe('stageStatus', () => {
  const job = (status: string, allow_failure = false) => ({ status, allow_failure });
  it.each([
    [[job('success'), job('failed')], 'failed'],
    [[job('success'), job('failed', true)], 'success'],
    [[job('success'), job('running')], 'running'],
    [[job('manual'), job('success')], 'manual'],
    [[job('skipped'), job('success')], 'success'],
    [[], 'created'],
  ])('%j → %s', (jobs, status) => expect(stageStatus(jobs)).toBe(status));
});
