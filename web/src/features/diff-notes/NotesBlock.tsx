import { DiscussionItem, type DiscussionEntity, useNotesContext } from '../notes';
import type { DraftNote } from './api';
import { DiffNoteForm } from './DiffNoteForm';
import { InDiffContext, useDiffNotes } from './DiffNotesContext';
import { DraftNoteItem } from '../review';
import styles from './DiffNotes.module.css';

/**
 * The threads, pending drafts and open form at one place of a diff (under a line, at the top
 * of a file, under an image). Threads are the Activity section's own thread component.
 */
export function NotesBlock({ path, anchor, threads, drafts }: { path: string; anchor: string; threads: readonly DiscussionEntity[]; drafts: readonly DraftNote[] }) {
  const notes = useDiffNotes();
  const { user } = useNotesContext();
  if (!notes) return null;
  const form = notes.form && notes.form.path === path && notes.form.anchor === anchor ? notes.form : null;
  const hidden = notes.commentsHidden(path);
  if (!form && (hidden || (threads.length === 0 && drafts.length === 0))) return null;
  return (
    <InDiffContext.Provider value={true}>
      <div className={styles.block} data-notes-anchor={anchor}>
        {hidden
          ? null
          : threads.map((thread) => (
              <div key={thread.id} className={styles.thread}>
                <DiscussionItem discussion={thread} />
              </div>
            ))}
        {hidden || !user ? null : drafts.map((draft) => <DraftNoteItem key={draft.id} draft={draft} author={user} target={notes.target} />)}
        {form ? <DiffNoteForm key={JSON.stringify(form.position)} position={form.position} onClose={notes.closeForm} /> : null}
      </div>
    </InDiffContext.Provider>
  );
}
