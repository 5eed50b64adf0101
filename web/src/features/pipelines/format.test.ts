import { describe, expect, it } from 'vitest';
import { failureMessage, formatDuration, formatTestTime, stageStatus, successRate } from './format';

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

describe('test report formats', () => {
  it.each([
    [0, '0 s'],
    [0.0004, '< 1 ms'],
    [0.25, '250 ms'],
    [1.25, '1.25 s'],
    [125, '2 min 5 s'],
  ])('%j s → %s', (seconds, text) => expect(formatTestTime(seconds)).toBe(text));

  it('rates passed tests out of those that ran', () => {
    expect(successRate({ total_count: 4, success_count: 2, skipped_count: 1 })).toBe('66.67%');
    expect(successRate({ total_count: 1, success_count: 0, skipped_count: 1 })).toBe('0%');
  });
});
