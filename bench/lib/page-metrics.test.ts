import { describe, expect, it } from 'vitest';
import { longest, splitTasksAt } from './page-metrics.js';

describe('splitTasksAt', () => {
  const tasks = [
    { start: 100, duration: 300 }, // start-up, ended at 400
    { start: 900, duration: 150 }, // running when the text was seen at 1,000
    { start: 1000, duration: 60 }, // starts at that moment
    { start: 1500, duration: 80 },
  ];

  it('puts tasks that ended before the moment before it, and those running at it or later after it', () => {
    const { before, after } = splitTasksAt(tasks, 1000);
    expect(before).toEqual([tasks[0]]);
    expect(after).toEqual([tasks[1], tasks[2], tasks[3]]);
    expect(longest(before)).toBe(300);
    expect(longest(after)).toBe(150);
  });

  it('has nothing after a moment past every task, and nothing before one ahead of them', () => {
    expect(splitTasksAt(tasks, 5000).after).toEqual([]);
    expect(splitTasksAt(tasks, 0).before).toEqual([]);
  });
});
