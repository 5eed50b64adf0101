/**
 * The review batch's rules, pure: what the keys send, how drafts split
 * between threads and new comments, and the review bar's count.
 */
import { n } from '@tributary/contracts';
import type { DraftNote } from './api';

/** The review bar's count. */
export const pendingCommentsText = (count: number) => n('%d pending comment', '%d pending comments', count);

export type SubmitKind = 'draft' | 'comment';

/**
 * Ctrl/Cmd+Enter sends, a draft first when drafts exist; Shift+Ctrl/Cmd+Enter
 * sends directly when a batch review is active. Forms that cannot add to a review always comment.
 */
export function keyboardSubmitKind({ shift, reviewInProgress, canReview }: { shift: boolean; reviewInProgress: boolean; canReview: boolean }): SubmitKind {
  if (!canReview || !reviewInProgress) return 'comment';
  return shift ? 'comment' : 'draft';
}

/** A draft on a diff line carries a position; the diff view shows those. */
export const isDiffDraft = (draft: DraftNote) => draft.position !== null && typeof draft.position === 'object' && Object.keys(draft.position).length > 0;

/** Drafts that start a new comment (not replies): shown after the Activity list. */
export const newCommentDrafts = (drafts: readonly DraftNote[]) => drafts.filter((draft) => draft.discussion_id === null);

/** Draft replies grouped by the thread they answer. */
export function draftRepliesByDiscussion(drafts: readonly DraftNote[]): Map<string, DraftNote[]> {
  const byThread = new Map<string, DraftNote[]>();
  for (const draft of drafts) {
    if (draft.discussion_id === null) continue;
    byThread.set(draft.discussion_id, [...(byThread.get(draft.discussion_id) ?? []), draft]);
  }
  return byThread;
}
