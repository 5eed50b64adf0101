/**
 * A rebase the user started moves the source branch; that new head is theirs, not "new
 * changes were just added", so the widget accepts it as the head it knows instead of
 * showing the sha-mismatch panel. The watch starts when PUT …/rebase answers 202 and reads
 * only widget data fetched after that: it ends when the head moved (accepted) or the
 * rebase reported a merge error (it failed; the head stays).
 */
export type RebaseWatch = { phase: 'idle' } | { phase: 'watching'; since: number };

export const NOT_WATCHING: RebaseWatch = { phase: 'idle' };

export interface RebaseWatchResult {
  watch: RebaseWatch;
  /** The head to take as known, when the rebase moved it. */
  acceptSha: string | null;
}

export function followRebase(
  watch: RebaseWatch,
  data: { rebaseInProgress: boolean; diffHeadSha: string | null; mergeError: string | null },
  fetchedAt: number,
  lastKnownSha: string | null,
): RebaseWatchResult {
  // Data fetched before the rebase was scheduled says nothing about it.
  if (watch.phase === 'idle' || fetchedAt <= watch.since || data.rebaseInProgress) return { watch, acceptSha: null };
  if (data.diffHeadSha !== lastKnownSha) return { watch: NOT_WATCHING, acceptSha: data.diffHeadSha };
  if (data.mergeError) return { watch: NOT_WATCHING, acceptSha: null };
  return { watch, acceptSha: null };
}
