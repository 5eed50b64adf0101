import { describe, expect, it } from 'vitest';
import { addDays, formatDate, formatDateTime, formatRelativeTime, localDayKey } from './time';

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

  it('reads as Intl formats English dates and times, without loading its locale data', () => {
    const intlDate = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric' });
    // Intl's own separators vary with the ICU version (U+202F before AM/PM in some); compare words and digits
    const intlDateTime = (date: Date) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(date).replace(/\s/g, ' ');
    for (const date of [new Date(2024, 0, 2, 15, 4), new Date(2024, 11, 31, 0, 0), new Date(2025, 5, 9, 12, 30), new Date(2026, 10, 22, 9, 7)]) {
      expect(formatDate(date)).toBe(intlDate.format(date));
      expect(formatDateTime(date)).toBe(intlDateTime(date));
    }
    expect(formatDateTime(new Date(2024, 0, 2, 0, 4))).toBe('Jan 2, 2024, 12:04 AM');
    expect(formatDateTime('garbage')).toBe('');
  });
});

describe('formatRelativeTime matches Intl.RelativeTimeFormat', () => {
  const intl = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
  it.each([
    [-1, 'minute'],
    [-59, 'minute'],
    [-1, 'hour'],
    [-2, 'day'],
    [-1, 'week'],
    [-11, 'month'],
    [-1, 'year'],
    [1, 'day'],
    [3, 'week'],
    [2, 'year'],
  ] as const)('%d %s', (count, unit) => {
    const size = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000, year: 365 * 86_400_000 }[unit];
    expect(formatRelativeTime(new Date(now.getTime() + count * size), now)).toBe(intl.format(count, unit));
  });
});

describe('localDayKey / addDays', () => {
  it('uses local calendar days', () => {
    expect(localDayKey(new Date(2024, 0, 31, 23, 59))).toBe('2024-01-31');
    expect(localDayKey(addDays(new Date(2024, 0, 31, 10), 1))).toBe('2024-02-01');
  });
});
