/**
 * Natural-language durations as GitLab parses them with ChronicDuration (`timeout`, `start_in`,
 * `artifacts:expire_in`, `environment:auto_stop_in`): a bare number is seconds; otherwise
 * number-unit pairs such as `3h 30m`, `1 hour 30 minutes`, `3 mins 4 sec`, `2 days`.
 */
const UNIT_SECONDS: [RegExp, number][] = [
  [/^(s|sec|secs|second|seconds)$/, 1],
  [/^(m|min|mins|minute|minutes)$/, 60],
  [/^(h|hr|hrs|hour|hours)$/, 3600],
  [/^(d|day|days)$/, 86400],
  [/^(w|wk|wks|week|weeks)$/, 604800],
  [/^(mo|mos|month|months)$/, 2592000],
  [/^(y|yr|yrs|year|years)$/, 31557600],
];

/** Seconds, or null when the text is not a duration. */
export function parseDuration(input: unknown): number | null {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? Math.floor(input) : null;
  if (typeof input !== 'string') return null;
  const text = input.trim().toLowerCase();
  if (text.length === 0 || text.length > 100) return null;
  if (/^\d+$/.test(text)) return Number(text);
  const parts = text.replace(/\band\b|,/g, ' ').match(/(\d+(?:\.\d+)?)\s*([a-z]+)/g);
  if (!parts || parts.join('').replace(/\s/g, '') !== text.replace(/\band\b|,|\s/g, '')) return null;
  let total = 0;
  for (const part of parts) {
    const [, amount, unit] = /(\d+(?:\.\d+)?)\s*([a-z]+)/.exec(part)!;
    const factor = UNIT_SECONDS.find(([pattern]) => pattern.test(unit!))?.[1];
    if (factor === undefined) return null;
    total += Number(amount) * factor;
  }
  return Math.floor(total);
}
