import { PencilIcon, TrashIcon } from '@primer/octicons-react';
import { Button, Flash, IconButton, Label, useConfirm } from '@primer/react';
import { t } from '@tributary/contracts';
import { useState } from 'react';
import { EntityAvatar } from '../../components/EntityAvatar';
import type { UserBasic } from '../../lib/gitlab-types';
import { errorMessage } from '../../lib/api-error';
import { MarkdownBody } from '../markdown';
import { NoteEditor } from '../notes';
import type { DraftNote, ReviewTarget } from './api';
import styles from './Review.module.css';
import { isDiffDraft } from './review-rules';
import { useReviewActions } from './useReviewActions';

/** The word the confirmations put in for a draft. */
export const PENDING_COMMENT = 'pending comment';

/**
 * One of the caller's draft notes, shown only to them (drafts are their author's only) with
 * the 'Pending' badge; editable and deletable until the review is submitted.
 */
export function DraftNoteItem({ draft, author, target, inThread = false }: { draft: DraftNote; author: UserBasic; target: ReviewTarget; inThread?: boolean }) {
  const actions = useReviewActions(target);
  const confirm = useConfirm();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(draft.note);
  const [error, setError] = useState<string | null>(null);

  const save = () => {
    if (text.trim() === '' || actions.updateDraft.isPending) return;
    actions.updateDraft.mutate(
      { id: draft.id, note: text },
      {
        onSuccess: () => {
          setEditing(false);
          setError(null);
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    );
  };
  const cancel = async () => {
    if (text !== draft.note) {
      const yes = await confirm({
        title: t('Cancel editing'),
        content: t('Are you sure you want to cancel editing this %{commentType}?', { commentType: t(PENDING_COMMENT) }),
        confirmButtonContent: t('Cancel editing'),
        cancelButtonContent: t('Continue editing'),
      });
      if (!yes) return;
    }
    setText(draft.note);
    setError(null);
    setEditing(false);
  };
  const remove = async () => {
    const yes = await confirm({
      title: t('Delete comment'),
      content: t('Are you sure you want to delete this %{commentType}?', { commentType: t(PENDING_COMMENT) }),
      confirmButtonContent: t('Delete comment'),
      confirmButtonType: 'danger',
    });
    if (yes) actions.removeDraft.mutate(draft.id, { onError: () => setError(t('Something went wrong while deleting your note. Please try again.')) });
  };

  const path = isDiffDraft(draft) ? (draft.position.new_path ?? draft.position.old_path) : undefined;
  return (
    <div className={`${styles.draft} ${inThread ? styles.draftInThread : ''}`} data-draft-id={draft.id}>
      <EntityAvatar name={author.name} id={author.id} src={author.avatar_url} size={32} square={false} />
      <div className={styles.draftMain}>
        <div className={styles.draftHeader}>
          <strong>{author.name}</strong>
          <span className="fgMuted">@{author.username}</span>
          <Label variant="attention">{t('Pending')}</Label>
          {path ? <code className="fgMuted">{path}</code> : null}
          {!editing ? (
            <span className={styles.draftActions}>
              <IconButton icon={PencilIcon} variant="invisible" size="small" aria-label={t('Edit comment')} onClick={() => setEditing(true)} />
              <IconButton icon={TrashIcon} variant="invisible" size="small" aria-label={t('Delete comment')} onClick={() => void remove()} disabled={actions.removeDraft.isPending} />
            </span>
          ) : null}
        </div>
        {error ? (
          <Flash variant="danger" role="alert">
            {error}
          </Flash>
        ) : null}
        {editing ? (
          <NoteEditor value={text} onChange={setText} onSubmit={save} onCancel={() => void cancel()} project={target.projectId} label={t('Edit comment')} autoFocus>
            <Button variant="primary" onClick={save} disabled={text.trim() === '' || actions.updateDraft.isPending}>
              {t('Save comment')}
            </Button>
            <Button onClick={() => void cancel()}>{t('Cancel')}</Button>
          </NoteEditor>
        ) : (
          <MarkdownBody text={draft.note} project={target.projectId} />
        )}
      </div>
    </div>
  );
}

/** The caller's drafts that start new comments, after the Activity list. */
export function PendingDrafts({ drafts, author, target }: { drafts: readonly DraftNote[]; author: UserBasic; target: ReviewTarget }) {
  if (drafts.length === 0) return null;
  return (
    <ol className={styles.drafts} aria-label={t('Pending comments')}>
      {drafts.map((draft) => (
        <li key={draft.id}>
          <DraftNoteItem draft={draft} author={author} target={target} />
        </li>
      ))}
    </ol>
  );
}
