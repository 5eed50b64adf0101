import { describe, expect, it } from 'vitest';
import { coalesce } from './live';

/** A run that ends when the test says so. */
function controlled() {
  const ends: Array<() => void> = [];
  let runs = 0;
  const run = () =>
    new Promise<void>((resolve) => {
      runs += 1;
      ends.push(resolve);
    });
  return { run, runs: () => runs, finish: async () => {
    ends.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  } };
}

describe('coalesce', () => {
  it('runs at once when idle', () => {
    const c = controlled();
    coalesce(c.run)();
    expect(c.runs()).toBe(1);
  });

  it('turns any number of calls during a run into one more run after it', async () => {
    const c = controlled();
    const start = coalesce(c.run);
    start();
    start();
    start();
    start();
    expect(c.runs()).toBe(1);
    await c.finish();
    expect(c.runs()).toBe(2);
    await c.finish();
    expect(c.runs()).toBe(2);
  });

  it('runs again after a failed run', async () => {
    let calls = 0;
    const start = coalesce(async () => {
      calls += 1;
      throw new Error('network');
    });
    start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    start();
    expect(calls).toBe(2);
  });
});

describe('rangeTotal and shownPart', async () => {
  const { rangeTotal } = await import('./useJobTrace');
  const { shownPart } = await import('./JobLog');
  it.each([
    ['bytes 0-5/6', 6],
    ['bytes */120', 120],
    [null, null],
    ['garbage', null],
  ])('rangeTotal(%s) = %s', (header, total) => {
    expect(rangeTotal(header)).toBe(total);
  });
  it('shows a short log whole, and the end of a long one from a line start', () => {
    expect(shownPart('a\nb\n', 10)).toEqual({ text: 'a\nb\n', truncated: false });
    expect(shownPart('first line\nsecond\nthird\n', 12)).toEqual({ text: 'third\n', truncated: true });
  });
});
