/**
 * The one translation helper for user-visible strings. Strings are written
 * in the code exactly as the specification quotes them; `t()` interpolates
 * `%{name}` placeholders and `%d` (the `count` value), as GitLab's
 * `sprintf`/`n__` helpers do.
 */
export type InterpolationValues = Record<string, string | number>;

export function t(message: string, values: InterpolationValues = {}): string {
  return message
    .replace(/%\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match))
    .replace(/%d/g, () => ('count' in values ? String(values.count) : '%d'));
}

/** Plural choice: `n('%d commit', '%d commits', 3)` → "3 commits". */
export function n(singular: string, plural: string, count: number, values: InterpolationValues = {}): string {
  return t(count === 1 ? singular : plural, { ...values, count });
}
