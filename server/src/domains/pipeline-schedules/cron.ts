/**
 * Cron expressions of pipeline schedules, read as GitLab reads them (Gitlab::Ci::CronParser, on
 * Fugit): five fields (minute, hour, day of month, month, day of week) with ranges, lists, steps
 * and the names `jan`…`dec`, `sun`…`sat`, or a shortcut (`@daily`…), in an IANA time zone.
 *
 * Day of month and day of week are ORed when both are restricted, as in crontab(5).
 *
 * The arithmetic is croner's (no dependencies, time zones through Intl); this module decides what
 * is valid and keeps the rules pure. Daylight saving time: a wall-clock time the spring jump skips
 * (02:30 on the night clocks go 02:00 → 03:00) runs at the moment the clocks jump past it; a time
 * the autumn fall-back repeats runs once, at its first occurrence.
 */
import { Cron } from 'croner';

/** GitLab's validation messages (`errors.add(:cron, " is invalid syntax")`, full message "Cron  is invalid syntax"). */
export const CRON_ERRORS = {
  cron: ' is invalid syntax',
  cronTimezone: ' is invalid syntax',
} as const;

/** The shortcuts Fugit (and so GitLab) accepts, as five fields. */
const SHORTCUTS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** One field's characters: digits, names, `*`, `,`, `-`, `/`, and Fugit's `L` and `#`. */
const FIELD = /^[0-9a-z*,\-/#]+$/i;

/** The five fields of `cron`, or null when it is not a five-field expression or shortcut. */
function fiveFields(cron: string): string | null {
  const trimmed = cron.trim();
  if (trimmed === '') return null;
  const shortcut = SHORTCUTS[trimmed.toLowerCase()];
  if (shortcut) return shortcut;
  const fields = trimmed.split(/\s+/);
  if (fields.length !== 5 || !fields.every((field) => FIELD.test(field))) return null;
  return fields.join(' ');
}

/** Is `timeZone` an IANA time zone name this runtime knows (Intl)? */
export function isValidTimeZone(timeZone: string): boolean {
  if (timeZone.trim() === '' || timeZone !== timeZone.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

function compile(cron: string, timeZone: string): Cron | null {
  const fields = fiveFields(cron);
  if (!fields || !isValidTimeZone(timeZone)) return null;
  try {
    return new Cron(fields, { timezone: timeZone, paused: true, mode: '5-part', domAndDow: false });
  } catch {
    return null;
  }
}

export function isValidCron(cron: string): boolean {
  return compile(cron, 'UTC') !== null;
}

/** GitLab's `{cron: [...], cron_timezone: [...]}` errors, empty when both are valid. */
export function cronErrors(cron: string, timeZone: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!isValidCron(cron)) errors.cron = [CRON_ERRORS.cron];
  if (!isValidTimeZone(timeZone)) errors.cron_timezone = [CRON_ERRORS.cronTimezone];
  return errors;
}

/**
 * The first time strictly after `after` at which `cron`, read in `timeZone`, fires; null for an
 * invalid expression or zone, or one that never fires (`0 0 31 2 *`).
 */
export function nextRunAt(cron: string, timeZone: string, after: Date): Date | null {
  const compiled = compile(cron, timeZone);
  if (!compiled) return null;
  return compiled.nextRun(after) ?? null;
}
