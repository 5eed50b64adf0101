/**
 * Label rules, GitLab's (Label, Gitlab::Color, ScopedLabelSet): colours, the text colour drawn
 * on them, titles, scoped labels (`key::value`) and the one-value-per-scope rule. Pure.
 */
import { ValidationError } from '../../platform/errors.js';

/** CSS colour names GitLab accepts for labels (Gitlab::Color::PALETTE), stored as their hex value. */
const COLOR_NAMES: Record<string, string> = {
  black: '#000000', white: '#FFFFFF', red: '#FF0000', green: '#008000', blue: '#0000FF', yellow: '#FFFF00',
  orange: '#FFA500', purple: '#800080', pink: '#FFC0CB', brown: '#A52A2A', gray: '#808080', grey: '#808080',
  cyan: '#00FFFF', magenta: '#FF00FF', lime: '#00FF00', navy: '#000080', teal: '#008080', olive: '#808000',
  maroon: '#800000', silver: '#C0C0C0', aqua: '#00FFFF', fuchsia: '#FF00FF', gold: '#FFD700', indigo: '#4B0082',
  violet: '#EE82EE', coral: '#FF7F50', salmon: '#FA8072', crimson: '#DC143C', tomato: '#FF6347', orchid: '#DA70D6',
  khaki: '#F0E68C', lavender: '#E6E6FA', turquoise: '#40E0D0', tan: '#D2B48C', chocolate: '#D2691E', beige: '#F5F5DC',
  darkred: '#8B0000', darkgreen: '#006400', darkblue: '#00008B', lightblue: '#ADD8E6', lightgreen: '#90EE90',
  lightgray: '#D3D3D3', darkgray: '#A9A9A9', skyblue: '#87CEEB', steelblue: '#4682B4', royalblue: '#4169E1',
  seagreen: '#2E8B57', forestgreen: '#228B22', firebrick: '#B22222', goldenrod: '#DAA520', slategray: '#708090',
};

export const LABEL_TITLE_MAX = 255;
export const LABEL_DESCRIPTION_MAX = 512;

/** `#RGB`, `#RRGGBB` or a CSS colour name, as stored (names become hex); null when invalid. */
export function normalizeColor(input: string): string | null {
  const value = input.trim();
  if (/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value)) return value;
  return COLOR_NAMES[value.toLowerCase()] ?? null;
}

/** A stored colour that is safe to place in a style attribute: exactly `#RGB` or `#RRGGBB`. */
export function isSafeColor(value: string): boolean {
  return /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value);
}

/** GitLab's Gitlab::Color#contrast: dark text on light colours (channel sum above 500), else white. */
export function textColorFor(color: string): string {
  if (!isSafeColor(color)) return '#FFFFFF';
  const hex = color.length === 4 ? [...color.slice(1)].map((c) => c + c) : [color.slice(1, 3), color.slice(3, 5), color.slice(5, 7)];
  const sum = hex.reduce((total, channel) => total + parseInt(channel, 16), 0);
  return sum > 500 ? '#1F1E24' : '#FFFFFF';
}

/** GitLab: a title is present, has no commas and at most 255 characters. */
export function labelTitleError(title: string): ValidationError | null {
  if (title.trim() === '') return ValidationError.field('title', "can't be blank");
  if (title.includes(',')) return ValidationError.field('title', 'is invalid');
  if (title.length > LABEL_TITLE_MAX) return ValidationError.field('title', `is too long (maximum is ${LABEL_TITLE_MAX} characters)`);
  return null;
}

export function labelColorError(color: string): ValidationError | null {
  return normalizeColor(color) === null ? ValidationError.field('color', 'must be a valid color code') : null;
}

/** The scope of a scoped label (everything before its last `::`), or null for a plain label. */
export function scopeOf(title: string): string | null {
  const at = title.lastIndexOf('::');
  return at > 0 && at + 2 < title.length ? title.slice(0, at) : null;
}

/** The parts a scoped label is drawn as: `key` | `value` (null for a plain label). */
export function splitScoped(title: string): { key: string; value: string } | null {
  const key = scopeOf(title);
  return key === null ? null : { key, value: title.slice(key.length + 2) };
}

/**
 * One value per scope (GitLab's filter_mutually_exclusive_labels): of the labels a merge request
 * will have, those of one scope keep only the last one just added; a scope to which nothing was
 * added is left as it is. Order of `labels` is kept.
 */
export function exclusiveScopedLabels<L extends { id: number; title: string }>(labels: readonly L[], addedIds: readonly number[]): L[] {
  const lastAdded = new Map<string, number>();
  for (const id of addedIds) {
    const label = labels.find((candidate) => candidate.id === id);
    const scope = label ? scopeOf(label.title) : null;
    if (scope !== null) lastAdded.set(scope, id);
  }
  return labels.filter((label) => {
    const scope = scopeOf(label.title);
    return scope === null || !lastAdded.has(scope) || lastAdded.get(scope) === label.id;
  });
}

/** `labels` as a comma list or array: trimmed titles, blanks dropped, each once (GitLab's LabelsList). */
export function parseLabelList(value: string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const titles = value.flatMap((item) => item.split(',')).map((title) => title.trim()).filter(Boolean);
  return [...new Set(titles)];
}

/** A label's reference in Markdown: `~bug`, `~"needs review"` (GitLab's Label#to_reference by name). */
export function labelReference(title: string): string {
  return /^[A-Za-z0-9_\-?.&]+$/.test(title) ? `~${title}` : `~"${title.replace(/"/g, '')}"`;
}
