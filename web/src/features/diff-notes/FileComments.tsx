import { CommentIcon } from '@primer/octicons-react';
import { ActionList, IconButton } from '@primer/react';
import { t } from '@tributary/contracts';
import { displayPath, type DiffFile } from '../../lib/diff-file';
import type { DiscussionEntity } from '../notes';
import type { DraftNote } from './api';
import { useDiffNotes } from './DiffNotesContext';
import { NotesBlock } from './NotesBlock';
import { filePosition } from './position';
import styles from './DiffNotes.module.css';

const NO_THREADS: readonly DiscussionEntity[] = [];
const NO_DRAFTS: readonly DraftNote[] = [];

/**
 * The file header's review controls: the 'Viewed' checkbox, which collapses the
 * file and is remembered per merge request, and the comment-on-file button.
 */
export function FileHeaderControls({ file, onCollapse }: { file: DiffFile; onCollapse: (collapsed: boolean) => void }) {
  const notes = useDiffNotes();
  if (!notes) return null;
  const path = displayPath(file);
  const reviewed = notes.isReviewed(file);
  const refs = notes.refs;
  return (
    <span className={styles.headerControls}>
      <label className={styles.viewed}>
        <input
          type="checkbox"
          checked={reviewed}
          onChange={(event) => {
            notes.setReviewed(file, event.target.checked);
            onCollapse(event.target.checked);
          }}
        />
        {t('Viewed')}
      </label>
      {refs ? (
        <IconButton
          icon={CommentIcon}
          aria-label={t('Comment on this file')}
          variant="invisible"
          size="small"
          onClick={() => {
            onCollapse(false);
            notes.openForm({ path, anchor: 'file', position: filePosition(refs, file) });
          }}
        />
      ) : null}
    </span>
  );
}

/** The more-actions entry that hides or shows a file's comments. */
export function ToggleCommentsItem({ file }: { file: DiffFile }) {
  const notes = useDiffNotes();
  if (!notes) return null;
  const path = displayPath(file);
  const hidden = notes.commentsHidden(path);
  // Does what it says: a second choice of a stale entry cannot undo the first.
  return <ActionList.Item onSelect={() => notes.setCommentsHidden(path, !hidden)}>{hidden ? t('Show comments on this file') : t('Hide comments on this file')}</ActionList.Item>;
}

/** The threads, drafts and form on the whole file, under its header. */
export function FileNotes({ file }: { file: DiffFile }) {
  const notes = useDiffNotes();
  if (!notes) return null;
  const path = displayPath(file);
  const threads = notes.threadsOf(path)?.file ?? NO_THREADS;
  const drafts = notes.draftsOf(path)?.file ?? NO_DRAFTS;
  return <NotesBlock path={path} anchor="file" threads={threads} drafts={drafts} />;
}
