import { describe, expect, it } from 'vitest';
import { addDays, formatDate, formatRelativeTime, localDayKey } from './time';

const now = new Date('2024-06-15T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('formatRelativeTime', () => {
  it.each([
    [ago(10_000), 'just now'],
    [ago(5 * 60_000), '5 minutes ago'],
    [ago(60 * 60_000), '1 hour ago'],
    [ago(26 * 3_600_000), '1 day ago'],
    [ago(3 * 86_400_000), '3 days ago'],
    [ago(15 * 86_400_000), '2 weeks ago'],
    [ago(65 * 86_400_000), '2 months ago'],
    [ago(800 * 86_400_000), '2 years ago'],
    [new Date(now.getTime() + 3 * 86_400_000), 'in 3 days'],
  ])('%s → %s', (date, expected) => expect(formatRelativeTime(date, now)).toBe(expected));

  it('accepts ISO strings and returns nothing for invalid dates', () => {
    expect(formatRelativeTime('2024-06-15T11:00:00Z', now)).toBe('1 hour ago');
    expect(formatRelativeTime('not a date', now)).toBe('');
  });
});

describe('formatDate', () => {
  it('formats a local date', () => {
    expect(formatDate(new Date(2024, 0, 2, 15, 4))).toBe('Jan 2, 2024');
    expect(formatDate('garbage')).toBe('');
  });
});

describe('localDayKey / addDays', () => {
  it('uses local calendar days', () => {
    expect(localDayKey(new Date(2024, 0, 31, 23, 59))).toBe('2024-01-31');
    expect(localDayKey(addDays(new Date(2024, 0, 31, 10), 1))).toBe('2024-02-01');
  });
});
