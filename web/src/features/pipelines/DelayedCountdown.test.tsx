// @vitest-environment jsdom
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import { DelayedCountdown, remainingTime } from './DelayedCountdown';

describe('remainingTime (GitLab’s HH:MM:SS)', () => {
  const at = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    ['2026-01-01T00:15:00Z', '00:15:00'],
    ['2026-01-01T01:02:03Z', '01:02:03'],
    ['2026-01-02T02:00:00Z', '26:00:00'],
    ['2026-01-01T00:00:00Z', '00:00:00'],
    ['2025-12-31T23:00:00Z', '00:00:00'],
  ])('%s → %s', (scheduledAt, expected) => expect(remainingTime(scheduledAt, at)).toBe(expected));
});

describe('DelayedCountdown', () => {
  afterEach(() => vi.useRealTimers());

  it('reads the job’s scheduledAt and counts down once a second', async () => {
    // the clock and the interval are fake; timeouts stay real for the request and the queries
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(Date.parse('2026-01-01T00:00:00Z'));
    const requests: unknown[] = [];
    fakeNetwork([on('POST', '/api/graphql', (request) => (requests.push(request), json(200, { data: { project: { job: { scheduledAt: '2026-01-01T00:01:30Z' } } } })))]);
    renderInApp(<DelayedCountdown fullPath="g/p" jobId={7} name="rollout" />);
    const timer = await screen.findByRole('timer');
    expect(timer.textContent).toBe('00:01:30');
    expect(timer.getAttribute('title')).toBe('rollout - delayed manual action (00:01:30)');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer').textContent).toBe('00:01:29');
    act(() => vi.advanceTimersByTime(89_000));
    expect(screen.getByRole('timer').textContent).toBe('00:00:00');
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.getByRole('timer').textContent).toBe('00:00:00');
    expect(requests).toHaveLength(1);
  });
});
