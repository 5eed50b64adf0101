import { Button, Flash, useConfirm } from '@primer/react';
import { t } from '@tributary/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api-error';
import { NoteEditor } from '../notes/NoteEditor';
import { InsertSuggestionButton } from '../suggestions/InsertSuggestionButton';
import { suggestionSourceOf } from '../suggestions/SuggestionPreview';
import { addThread, diffNotesApi, draftNotesKey } from './api';
import { useDiffNotes } from './DiffNotesContext';
import type { DiffPosition } from './position';
import { rangeLabel } from './position';
import styles from './DiffNotes.module.css';

/**
 * The comment form in a diff (with the comment field's keys): 'Start a review' (or
 * 'Add to review' once the user has drafts) saves a draft with the position, 'Add comment
 * now' starts a thread at once. Ctrl/Cmd+Enter sends, to the review first when drafts exist;
 * Escape cancels.
 */
export function DiffNoteForm({ position, onClose }: { position: DiffPosition; onClose: () => void }) {
  const notes = useDiffNotes()!;
  const client = useQueryClient();
  const confirm = useConfirm();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const target = notes.target;

  const comment = useMutation({
    mutationFn: (body: string) => diffNotesApi.createThread(target, body, position),
    onSuccess: (discussion) => {
      addThread(client, target, discussion);
      onClose();
    },
    onError: (failure) => setError(errorMessage(failure)),
  });
  const draft = useMutation({
    mutationFn: (body: string) => diffNotesApi.createDraft(target, body, position),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: draftNotesKey(target.projectId, target.iid) });
      onClose();
    },
    onError: (failure) => setError(errorMessage(failure)),
  });
  const busy = comment.isPending || draft.isPending;
  const empty = text.trim() === '';

  const send = (toReview: boolean) => {
    if (busy || empty) return;
    if (toReview) draft.mutate(text);
    else comment.mutate(text);
  };
  const cancel = async () => {
    if (!empty) {
      const yes = await confirm({
        title: t('Discard changes'),
        content: t('Are you sure you want to cancel creating this %{commentType}?', { commentType: t('comment') }),
        confirmButtonContent: t('Discard changes'),
        cancelButtonContent: t('Continue editing'),
      });
      if (!yes) return;
    }
    onClose();
  };
  const range = position.position_type === 'text' ? rangeLabel(position) : null;

  return (
    <div className={styles.form} data-diff-note-form>
      {range ? <p className={styles.rangeLabel}>{t('Commenting on lines %{range}', { range })}</p> : null}
      {error ? (
        <Flash variant="danger" role="alert" className={styles.alert}>
          {error}
        </Flash>
      ) : null}
      <NoteEditor
        value={text}
        onChange={setText}
        onSubmit={() => send(notes.hasDrafts)}
        onCancel={() => void cancel()}
        project={target.projectId}
        label={t('Comment')}
        autoFocus
        suggestionSource={suggestionSourceOf(target.projectId, position)}
      >
        <Button variant="primary" onClick={() => send(true)} disabled={empty || busy}>
          {notes.hasDrafts ? t('Add to review') : t('Start a review')}
        </Button>
        <Button onClick={() => send(false)} disabled={empty || busy}>
          {t('Add comment now')}
        </Button>
        <Button variant="invisible" onClick={() => void cancel()}>
          {t('Cancel')}
        </Button>
        <InsertSuggestionButton projectId={target.projectId} position={position} value={text} onChange={setText} />
      </NoteEditor>
    </div>
  );
}
