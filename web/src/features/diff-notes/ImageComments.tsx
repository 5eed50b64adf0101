import { t } from '@tributary/contracts';
import type { ReactNode } from 'react';
import { displayPath, type DiffFile } from '../../lib/diff-file';
import type { DiscussionEntity } from '../notes';
import type { DraftNote } from './api';
import { useDiffNotes } from './DiffNotesContext';
import { NotesBlock } from './NotesBlock';
import { imagePosition, pinPlacement, type Size } from './position';
import { imagePins } from './threads';
import styles from './DiffNotes.module.css';

const NO_THREADS: readonly DiscussionEntity[] = [];
const NO_DRAFTS: readonly DraftNote[] = [];

/**
 * The comment layer over a new image: its threads' numbered pins
 * at their {x, y} of the image's natural size, and a click that places a new pin and opens
 * the form. Enter on the layer places it in the middle.
 */
export function ImageCommentLayer({ file, natural, drawn, children }: { file: DiffFile; natural: Size | null; drawn: Size | null; children: ReactNode }) {
  const notes = useDiffNotes();
  if (!notes) return children;
  const path = displayPath(file);
  const placed = notes.threadsOf(path);
  const pins = notes.commentsHidden(path) ? [] : imagePins(placed?.image ?? NO_THREADS, notes.draftsOf(path)?.image ?? NO_DRAFTS);
  const form = notes.form?.path === path && notes.form.anchor === 'image' && notes.form.position.position_type === 'image' ? notes.form.position : null;
  const refs = notes.refs;
  return (
    <span className={styles.imageLayer} data-image-comments={path}>
      {children}
      {refs && natural && drawn ? (
        <button
          type="button"
          className={styles.imageClick}
          aria-label={t('Add image comment')}
          onClick={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            // Enter or Space (detail 0): the middle of the image
            const click = event.detail === 0 ? { x: box.width / 2, y: box.height / 2 } : { x: event.clientX - box.left, y: event.clientY - box.top };
            const position = imagePosition(refs, file, click, { width: box.width, height: box.height }, natural);
            notes.openForm({ path, anchor: 'image', position });
          }}
        />
      ) : null}
      {pins.map((pin) => (
        <span key={pin.key} className={`${styles.pin} ${pin.draft ? styles.pinDraft : ''}`} style={pinPlacement(pin.position)} aria-hidden="true" data-pin={pin.number}>
          {pin.number}
        </span>
      ))}
      {form ? (
        <span className={`${styles.pin} ${styles.pinNew}`} style={pinPlacement(form)} aria-hidden="true" data-pin="new">
          {pins.length + 1}
        </span>
      ) : null}
    </span>
  );
}

/** The image's threads, drafts and form, under the image viewer. */
export function ImageNotes({ file }: { file: DiffFile }) {
  const notes = useDiffNotes();
  if (!notes) return null;
  const path = displayPath(file);
  return <NotesBlock path={path} anchor="image" threads={notes.threadsOf(path)?.image ?? NO_THREADS} drafts={notes.draftsOf(path)?.image ?? NO_DRAFTS} />;
}
