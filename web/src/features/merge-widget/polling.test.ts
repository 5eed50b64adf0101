import { WIDGET_POLLING } from '@tributary/contracts/merge-widget';
import { describe, expect, it } from 'vitest';
import { parsePollInterval, pollDelay } from './polling';

describe('parsePollInterval', () => {
  it('reads milliseconds, and nothing from an absent or bad header', () => {
    expect(parsePollInterval('10000')).toBe(10_000);
    expect(parsePollInterval('-1')).toBe(-1);
    expect(parsePollInterval(null)).toBeNull();
    expect(parsePollInterval('soon')).toBeNull();
  });
});

describe('pollDelay', () => {
  const visible = { unchangedPolls: 0, hidden: false };

  it('uses the default constant without a header', () => {
    expect(pollDelay({ ...visible, headerMs: null })).toBe(WIDGET_POLLING.defaultIntervalMs);
  });

  it('uses the header, clamped between start (5 s) and start + 240 s', () => {
    expect(pollDelay({ ...visible, headerMs: 20_000 })).toBe(20_000);
    expect(pollDelay({ ...visible, headerMs: 1_000 })).toBe(5_000);
    expect(pollDelay({ ...visible, headerMs: 900_000 })).toBe(245_000);
  });

  it('does not poll for a negative interval', () => {
    expect(pollDelay({ ...visible, headerMs: -1 })).toBeNull();
    expect(pollDelay({ unchangedPolls: 3, hidden: true, headerMs: -1 })).toBeNull();
  });

  it('doubles after each poll that found nothing new, up to the maximum', () => {
    expect(pollDelay({ headerMs: 5_000, unchangedPolls: 1, hidden: false })).toBe(10_000);
    expect(pollDelay({ headerMs: 5_000, unchangedPolls: 3, hidden: false })).toBe(40_000);
    expect(pollDelay({ headerMs: 5_000, unchangedPolls: 20, hidden: false })).toBe(245_000);
  });

  it('waits 360 s while the tab is hidden', () => {
    expect(pollDelay({ headerMs: 5_000, unchangedPolls: 0, hidden: true })).toBe(360_000);
  });
});
