// features/review: what other areas and the app may use. Everything else in this folder is its own.
export { reviewKeys, useDraftNotes, type DraftNote } from './api';
export { DraftNoteItem, PendingDrafts } from './DraftNoteItem';
export { keyboardSubmitKind, newCommentDrafts } from './review-rules';
export { ReviewBar } from './ReviewBar';
export { useReviewActions } from './useReviewActions';
