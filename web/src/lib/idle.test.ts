import { describe, expect, it } from 'vitest';
import { whenIdle, type IdleScheduler } from './idle';

/** A scheduler that records what was asked and runs nothing until told to. */
function fakeScheduler(withIdle: boolean) {
  const idle = new Map<number, { callback: () => void; timeout: number }>();
  const timers = new Map<number, { callback: () => void; ms: number }>();
  let next = 1;
  const scheduler: IdleScheduler = {
    setTimeout: (callback, ms) => (timers.set(next, { callback, ms }), next++),
    clearTimeout: (id) => void timers.delete(id),
    ...(withIdle
      ? {
          requestIdleCallback: (callback: () => void, options: { timeout: number }) => (idle.set(next, { callback, timeout: options.timeout }), next++),
          cancelIdleCallback: (id: number) => void idle.delete(id),
        }
      : {}),
  };
  return { scheduler, idle, timers };
}

describe('whenIdle', () => {
  it('asks for an idle period with the deadline, and runs the callback in it', () => {
    const { scheduler, idle, timers } = fakeScheduler(true);
    let ran = 0;
    whenIdle(() => ran++, 500, scheduler);
    expect([...idle.values()].map((entry) => entry.timeout)).toEqual([500]);
    expect(timers.size).toBe(0);
    for (const entry of idle.values()) entry.callback();
    expect(ran).toBe(1);
  });

  it('cancels the idle callback it asked for', () => {
    const { scheduler, idle } = fakeScheduler(true);
    const cancel = whenIdle(() => undefined, 500, scheduler);
    cancel();
    expect(idle.size).toBe(0);
  });

  it('falls back to the next task without requestIdleCallback, and cancels that', () => {
    const { scheduler, timers } = fakeScheduler(false);
    const cancel = whenIdle(() => undefined, 500, scheduler);
    expect([...timers.values()].map((entry) => entry.ms)).toEqual([0]);
    cancel();
    expect(timers.size).toBe(0);
  });
});
