import { WIDGET_POLLING } from '@tributary/contracts/merge-widget';

/**
 * The fallback poll, used only while the live subscription is down: the
 * server's Poll-Interval header (ms) overrides the default constant; the interval is
 * clamped between the start and start + maximum, grows by the factor after every poll
 * that found nothing new, and becomes the hidden-tab interval while the tab is hidden. A
 * negative interval means the server asks for no polling.
 */
const { defaultIntervalMs } = WIDGET_POLLING;
const { startMs, maxMs, hiddenIntervalMs, factor } = WIDGET_POLLING.readyToMerge;

/** The header's value in milliseconds, or null when absent or not a number. */
export function parsePollInterval(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  const value = Number(header);
  return Number.isFinite(value) ? value : null;
}

/**
 * Milliseconds until the next poll, or null for none.
 * `unchangedPolls` counts the polls in a row that found the same data.
 */
export function pollDelay(input: { headerMs: number | null; unchangedPolls: number; hidden: boolean }): number | null {
  const base = input.headerMs ?? defaultIntervalMs;
  if (base < 0) return null;
  if (input.hidden) return hiddenIntervalMs;
  const start = Math.min(maxMs, Math.max(startMs, base));
  return Math.min(maxMs, start * factor ** input.unchangedPolls);
}

/** While a merge runs the widget polls the merge request until it is merged, this often. */
export const MERGING_POLL_MS = 1_000;
