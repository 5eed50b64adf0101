/**
 * The one coercion of an integer parameter, for every input reader (REST params, diff
 * positions): GitLab's Grape Integer type takes a whole JSON number, or a string of digits
 * with an optional sign (surrounding spaces ignored). Anything else (`1e3`, `0x10`, `1.5`,
 * `''`) and anything beyond the safe integers is not an integer: NaN, which callers refuse.
 */
export function integerParam(value: unknown): number {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : Number.NaN;
  if (typeof value !== 'string' || !/^[+-]?\d+$/.test(value.trim())) return Number.NaN;
  const number = Number(value.trim());
  return Number.isSafeInteger(number) ? number : Number.NaN;
}
