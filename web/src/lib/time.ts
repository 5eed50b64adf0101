/** Relative and absolute dates for lists ("3 days ago", "in 2 weeks"), in English as the spec's strings are. */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

type Unit = 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute';

const UNITS: [Unit, number][] = [
  ['year', YEAR],
  ['month', MONTH],
  ['week', WEEK],
  ['day', DAY],
  ['hour', HOUR],
  ['minute', MINUTE],
];

// Formatted by hand, as Intl's English formats them ("3 days ago", "Jan 2, 2024, 3:04 PM"): a page's
// first Intl object loads the browser's locale data, 40-100 ms of one task on a page that shows
// dozens of dates, and these few English patterns need none of it.

/** Intl.RelativeTimeFormat('en', { numeric: 'always' }) of a whole, non-zero count. */
function relative(count: number, unit: Unit): string {
  const size = Math.abs(count);
  const units = `${size} ${unit}${size === 1 ? '' : 's'}`;
  return count < 0 ? `${units} ago` : `in ${units}`;
}

export function formatRelativeTime(date: Date | string, now: Date = new Date()): string {
  const then = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(then.getTime())) return '';
  const diff = then.getTime() - now.getTime();
  const abs = Math.abs(diff);
  if (abs < MINUTE) return 'just now';
  for (const [unit, size] of UNITS) {
    if (abs >= size) return relative(Math.trunc(diff / size), unit);
  }
  return 'just now';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const toDate = (date: Date | string) => (typeof date === 'string' ? new Date(date) : date);

/** "Jan 2, 2024" in the viewer's time zone. */
export function formatDate(date: Date | string): string {
  const value = toDate(date);
  return Number.isNaN(value.getTime()) ? '' : `${MONTHS[value.getMonth()]} ${value.getDate()}, ${value.getFullYear()}`;
}

/** "Jan 2, 2024, 3:04 PM", for tooltips. */
export function formatDateTime(date: Date | string): string {
  const value = toDate(date);
  if (Number.isNaN(value.getTime())) return '';
  const hours = value.getHours();
  const minutes = String(value.getMinutes()).padStart(2, '0');
  return `${formatDate(value)}, ${hours % 12 === 0 ? 12 : hours % 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** `YYYY-MM-DD` of a local date, for `<input type="date">` values and grouping. */
export function localDayKey(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function addDays(date: Date, days: number): Date {
  const copy = new Date(date);
  copy.setDate(copy.getDate() + days);
  return copy;
}
