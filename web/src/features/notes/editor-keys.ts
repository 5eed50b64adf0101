/**
 * The comment field's keys, pure: Up in an empty field edits the last own note;
 * Ctrl/Cmd+Enter sends; Shift+Ctrl/Cmd+Enter sends directly (past the review); Escape cancels.
 */
export type EditorKeyAction = 'submit' | 'submit-direct' | 'cancel' | 'edit-last' | null;

export interface EditorKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey?: boolean;
}

export function editorKeyAction(event: EditorKey, state: { empty: boolean; canCancel: boolean; canEditLast: boolean }): EditorKeyAction {
  const command = event.ctrlKey || event.metaKey;
  if (event.key === 'Enter' && command) return event.shiftKey ? 'submit-direct' : 'submit';
  if (event.key === 'Escape' && state.canCancel) return 'cancel';
  // a bare Up only: Shift+Up selects text, Ctrl/Alt+Up move the caret
  if (event.key === 'ArrowUp' && state.empty && state.canEditLast && !command && !event.shiftKey && !event.altKey) return 'edit-last';
  return null;
}
