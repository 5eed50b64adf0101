/**
 * The nine rotating messages of the merging panel, GitLab's
 * MERGE_ACTIVE_STATUS_PHRASES: 'Merging!' in bold, then the phrase. (GitLab adds an emoji to
 * each; without an emoji font it renders as an empty box, so the widget shows the words only.)
 */
export const MERGING_PHRASES: readonly string[] = [
  '%{boldStart}Merging!%{boldEnd} Drum roll, please…',
  "%{boldStart}Merging!%{boldEnd} We're almost there…",
  '%{boldStart}Merging!%{boldEnd} Changes will land soon…',
  '%{boldStart}Merging!%{boldEnd} Changes are being shipped…',
  "%{boldStart}Merging!%{boldEnd} Everything's good…",
  '%{boldStart}Merging!%{boldEnd} This is going to be great…',
  '%{boldStart}Merging!%{boldEnd} Lift-off in 5… 4… 3…',
  '%{boldStart}Merging!%{boldEnd} The changes are leaving the station…',
  '%{boldStart}Merging!%{boldEnd} Take a deep breath and relax…',
];

/** How long each phrase shows before the next. */
export const MERGING_PHRASE_MS = 3_000;

/** The phrase after `index`, wrapping around. */
export function nextPhraseIndex(index: number): number {
  return (index + 1) % MERGING_PHRASES.length;
}
