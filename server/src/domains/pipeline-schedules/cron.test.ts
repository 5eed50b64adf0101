import { describe, expect, it } from 'vitest';
import { cronErrors, isValidCron, isValidTimeZone, nextRunAt } from './cron.js';

const at = (iso: string) => new Date(iso);

describe('nextRunAt', () => {
  const cases: [string, string, string, string, string][] = [
    // what, cron, zone, after, next (UTC)
    ['every minute', '* * * * *', 'UTC', '2026-01-01T10:00:30Z', '2026-01-01T10:01:00Z'],
    ['strictly after: a due minute is the next one', '0 4 * * *', 'UTC', '2026-01-01T04:00:00Z', '2026-01-02T04:00:00Z'],
    ['a range with a step', '10-50/20 * * * *', 'UTC', '2026-01-01T10:31:00Z', '2026-01-01T10:50:00Z'],
    ['a list', '5,45 9 * * *', 'UTC', '2026-01-01T09:06:00Z', '2026-01-01T09:45:00Z'],
    ['every 15 minutes', '*/15 * * * *', 'UTC', '2026-01-01T10:16:00Z', '2026-01-01T10:30:00Z'],
    ['day names', '0 9 * * mon-fri', 'UTC', '2026-01-02T10:00:00Z', '2026-01-05T09:00:00Z'], // Friday → Monday
    ['month names', '0 0 1 jan,jul *', 'UTC', '2026-02-01T00:00:00Z', '2026-07-01T00:00:00Z'],
    ['day of month OR day of week (crontab)', '0 0 13 * fri', 'UTC', '2026-02-01T00:00:00Z', '2026-02-06T00:00:00Z'],
    ['@daily', '@daily', 'UTC', '2026-01-01T10:00:00Z', '2026-01-02T00:00:00Z'],
    ['@hourly', '@hourly', 'UTC', '2026-01-01T10:00:00Z', '2026-01-01T11:00:00Z'],
    ['@weekly (Sunday)', '@weekly', 'UTC', '2026-01-01T10:00:00Z', '2026-01-04T00:00:00Z'],
    ['@monthly', '@monthly', 'UTC', '2026-01-15T10:00:00Z', '2026-02-01T00:00:00Z'],
    ['@yearly', '@yearly', 'UTC', '2026-01-15T10:00:00Z', '2027-01-01T00:00:00Z'],
    ['a time zone', '0 9 * * *', 'America/New_York', '2026-01-01T00:00:00Z', '2026-01-01T14:00:00Z'],
    ['a zone ahead of UTC, the date there', '0 1 * * *', 'Asia/Tokyo', '2026-01-01T17:00:00Z', '2026-01-02T16:00:00Z'],
    ['a half-hour zone', '0 0 * * *', 'Asia/Kolkata', '2026-01-01T00:00:00Z', '2026-01-01T18:30:00Z'],
    // Berlin springs forward at 02:00 → 03:00 on 29 March 2026: 02:30 does not exist that night
    ['DST: a skipped time runs as the clocks jump past it', '30 2 * * *', 'Europe/Berlin', '2026-03-29T00:00:00Z', '2026-03-29T01:30:00Z'],
    ['DST: the day after the jump, summer time', '30 2 * * *', 'Europe/Berlin', '2026-03-29T02:00:00Z', '2026-03-30T00:30:00Z'],
    ['DST: 09:00 across the spring jump stays 09:00 local', '0 9 * * *', 'Europe/Berlin', '2026-03-28T09:00:00Z', '2026-03-29T07:00:00Z'],
    // Berlin falls back at 03:00 → 02:00 on 25 October 2026: 02:30 happens twice, the schedule runs once
    ['DST: a repeated time runs at its first occurrence', '30 2 * * *', 'Europe/Berlin', '2026-10-25T00:00:00Z', '2026-10-25T00:30:00Z'],
    ['DST: and not again in the repeated hour', '30 2 * * *', 'Europe/Berlin', '2026-10-25T00:30:00Z', '2026-10-26T01:30:00Z'],
    ['DST in New York (spring)', '0 12 * * *', 'America/New_York', '2026-03-08T00:00:00Z', '2026-03-08T16:00:00Z'],
  ];
  it.each(cases)('%s: %s in %s after %s', (_what, cron, zone, after, expected) => {
    expect(nextRunAt(cron, zone, at(after))?.toISOString()).toBe(at(expected).toISOString());
  });

  it('answers null for what is invalid or never fires', () => {
    expect(nextRunAt('nonsense', 'UTC', at('2026-01-01T00:00:00Z'))).toBeNull();
    expect(nextRunAt('* * * * *', 'Mars/Olympus', at('2026-01-01T00:00:00Z'))).toBeNull();
    expect(nextRunAt('0 0 31 2 *', 'UTC', at('2026-01-01T00:00:00Z'))).toBeNull();
  });
});

describe('validation', () => {
  const valid = ['* * * * *', '0 4 * * *', '*/5 1-3 1,15 jan-jun mon', '0 0 * * SUN', '@daily', '@midnight', '@annually', '  0 1 * * *  ', '0 0 L * *'];
  const invalid = ['', ' ', '* * * *', '* * * * * *', '60 * * * *', '* 24 * * *', '* * 32 * *', '* * * 13 *', '* * * * 8', '@reboot', '@every 5m', 'a b c d e', '0 0 * * mon;rm'];
  it.each(valid)('accepts %j', (cron) => expect(isValidCron(cron)).toBe(true));
  it.each(invalid)('refuses %j', (cron) => expect(isValidCron(cron)).toBe(false));

  it.each([
    ['UTC', true],
    ['Europe/Berlin', true],
    ['America/Argentina/Buenos_Aires', true],
    ['Mars/Olympus', false],
    ['', false],
    [' UTC', false],
  ] as const)('time zone %j valid: %s', (zone, expected) => expect(isValidTimeZone(zone)).toBe(expected));

  it("answers GitLab's messages per field", () => {
    expect(cronErrors('0 1 * * *', 'UTC')).toEqual({});
    expect(cronErrors('bad', 'UTC')).toEqual({ cron: [' is invalid syntax'] });
    expect(cronErrors('0 1 * * *', 'Nowhere/Town')).toEqual({ cron_timezone: [' is invalid syntax'] });
  });
});
