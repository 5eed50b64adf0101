import { FileIcon } from '@primer/octicons-react';
import { Button, Label, Spinner } from '@primer/react';
import { t } from '@tributary/contracts';
import { useQuery } from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';
import { rawFileQuery, useImageBlob } from '../diffs';
import { useNotesContext, type DiscussionEntity } from '../notes';
import { outdatedLinesQuery } from './api';
import { InDiffContext } from './DiffNotesContext';
import { excerptLines } from './excerpt';
import { pinPlacement, positionPath, type ImagePosition, type TextPosition } from './position';
import { diffThreadAction, outdatedLinesPath, outdatedRows } from './outdated';
import { discussionPosition, isOutdated } from './threads';
import styles from './DiffNotes.module.css';

/**
 * A diff thread in the Activity section: GitLab's header
 * ('started a thread on the diff', or 'on an old version of the diff' once a push changed the
 * line), the file, and the lines around the commented one (or the image with its pin) as the
 * thread's version had them. An outdated thread shows instead the lines of the change that made
 * it outdated (`outdated_line_change_path`). Nothing inside the diff itself, where the lines are
 * right above.
 */
export function DiffExcerpt({ discussion }: { discussion: DiscussionEntity }) {
  const inDiff = useContext(InDiffContext);
  const position = discussionPosition(discussion);
  if (inDiff || !position) return null;
  const outdated = isOutdated(discussion);
  const linesPath = outdated && position.position_type === 'text' ? outdatedLinesPath(discussion) : null;
  const action = diffThreadAction(discussion);
  const author = discussion.notes[0]?.author?.name ?? t('Ghost User');
  return (
    <>
      {action ? (
        <p className={styles.threadAction} data-thread-action>
          <strong>{author}</strong> {t(action)}
        </p>
      ) : null}
      <div className={styles.excerpt} data-diff-excerpt data-outdated={outdated || undefined}>
        <div className={styles.excerptHeader}>
          <FileIcon size={14} />
          <span>{positionPath(position)}</span>
          {outdated ? <Label variant="attention">{t('outdated')}</Label> : null}
        </div>
        {position.position_type === 'text' ? (
          linesPath ? (
            <OutdatedLines path={linesPath} fallback={<TextExcerpt position={position} />} />
          ) : (
            <TextExcerpt position={position} />
          )
        ) : position.position_type === 'image' ? (
          <ImageExcerpt position={position} />
        ) : null}
      </div>
    </>
  );
}

/**
 * The -/+ lines of the change that made the thread outdated, with both line numbers (GitLab's
 * outdated lines table). When the server finds no such lines, the lines the thread was written on.
 */
function OutdatedLines({ path, fallback }: { path: string; fallback: ReactNode }) {
  const lines = useQuery(outdatedLinesQuery(path));
  if (lines.isPending) return <Spinner size="small" srText={t('Loading the diff')} />;
  if (lines.isError) {
    // "Unable to load the diff", with a Try again button, as GitLab does
    return (
      <div className={styles.excerptError} role="alert">
        <span>{t('Unable to load the diff')}</span>
        <Button size="small" onClick={() => void lines.refetch()} disabled={lines.isFetching}>
          {t('Try again')}
        </Button>
      </div>
    );
  }
  const rows = outdatedRows(lines.data);
  if (rows.length === 0) return <>{fallback}</>;
  return (
    <div className={styles.excerptLines} role="group" aria-label={t('Outdated lines')} data-outdated-lines>
      {rows.map((row) => (
        <div key={row.key} className={`${styles.outdatedLine} ${row.kind === 'added' ? styles.lineAdded : row.kind === 'removed' ? styles.lineRemoved : ''}`} data-line-kind={row.kind}>
          <span>{row.oldLine ?? ''}</span>
          <span>{row.newLine ?? ''}</span>
          <span aria-hidden="true">{row.marker}</span>
          <span>{row.content || '\u200b'}</span>
        </div>
      ))}
    </div>
  );
}

function TextExcerpt({ position }: { position: TextPosition }) {
  const { target } = useNotesContext();
  // a removed line exists only in the old file
  const oldSide = position.new_line === null;
  const sha = oldSide ? position.base_sha : position.head_sha;
  const path = oldSide ? position.old_path : position.new_path;
  const file = useQuery(rawFileQuery(target.projectId, sha, path));
  if (file.isPending) return <Spinner size="small" srText={t('Loading the diff')} />;
  const lines = file.data?.lines;
  if (!lines) return null;
  return (
    <div className={styles.excerptLines} role="group" aria-label={t('Diff excerpt')}>
      {excerptLines(lines, position).map((line) => (
        <div key={line.number} className={`${styles.excerptLine} ${line.commented ? styles.excerptTarget : ''}`}>
          <span>{line.number}</span>
          <span>{line.text || '\u200b'}</span>
        </div>
      ))}
    </div>
  );
}

function ImageExcerpt({ position }: { position: ImagePosition }) {
  const { target } = useNotesContext();
  const image = useImageBlob(target.projectId, position.head_sha, position.new_path);
  if (!image.url) return null;
  return (
    <div className={styles.excerptImage}>
      <span className={styles.imageLayer}>
        <img src={image.url} alt={position.new_path} style={{ maxWidth: 240 }} />
        <span className={styles.pin} style={pinPlacement(position)} aria-hidden="true">
          1
        </span>
      </span>
    </div>
  );
}
