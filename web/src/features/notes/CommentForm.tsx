import { ActionList, ActionMenu, Button, ButtonGroup, Checkbox, Flash, FormControl, IconButton } from '@primer/react';
import { XIcon } from '@primer/octicons-react';
import { t } from '@tributary/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api-error';
import { keyboardSubmitKind, useReviewActions } from '../review';
import { appendDiscussion, notesApi, notesKeys } from './api';
import { autosaveKey } from './activity';
import { useAutosave } from './autosave';
import { NoteEditor } from './NoteEditor';
import { useNotesContext } from './NotesContext';
import styles from './Notes.module.css';
import type { DiscussionEntity, NoteEntity } from './types';

/**
 * The main comment form: a comment or a new thread, internal
 * when allowed, the draft autosaved under `note/{type}/{id}` until it is sent. Beside
 * 'Comment', 'Start a review' (or 'Add to review' while one is in progress) saves a draft note.
 */
export function CommentForm({ canCreateInternal, onEditLast }: { canCreateInternal: boolean; onEditLast: () => void }) {
  const ctx = useNotesContext();
  const client = useQueryClient();
  const [internal, setInternal] = useState(false);
  const [thread, setThread] = useState(false);
  const [text, setText, clear] = useAutosave(autosaveKey(ctx.noteableType, ctx.target.iid, { internal }));
  const [error, setError] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: (input: { body: string; internal: boolean; thread: boolean }): Promise<DiscussionEntity | NoteEntity> => notesApi.create(ctx.target, input),
    onSuccess: (created, input) => {
      setError(null);
      clear();
      if (input.thread) appendDiscussion(client, ctx.target, created as DiscussionEntity);
      // a plain note's entity does not name its discussion: read the threads again
      void client.invalidateQueries({ queryKey: notesKeys.discussions(ctx.target.projectId, ctx.target.iid) });
    },
    // the text stays in the field (and in the autosave) to be sent again
    onError: (failure) => setError(errorMessage(failure)),
  });

  const review = useReviewActions(ctx.target);
  const reviewInProgress = ctx.drafts.length > 0;
  const busy = create.isPending || review.addDraft.isPending;

  const submit = () => {
    if (text.trim() === '' || busy) return;
    create.mutate({ body: text, internal, thread });
  };
  const addToReview = () => {
    if (text.trim() === '' || busy) return;
    review.addDraft.mutate(
      { note: text, internal },
      {
        onSuccess: () => {
          setError(null);
          clear();
        },
        // The server's reason, the form enabled again, the text kept
        onError: (failure) => setError(errorMessage(failure)),
      },
    );
  };
  // Ctrl/Cmd+Enter adds to a review in progress, Shift+Ctrl/Cmd+Enter comments now
  const byKeys = (shift: boolean) => (keyboardSubmitKind({ shift, reviewInProgress, canReview: true }) === 'draft' ? addToReview() : submit());
  const label = thread ? t('Start a thread') : t('Comment');

  return (
    <div className={styles.commentForm}>
      {error ? (
        <Flash variant="danger" role="alert" className={styles.alert}>
          <span>{error}</span>
          <IconButton icon={XIcon} variant="invisible" size="small" aria-label={t('Dismiss')} onClick={() => setError(null)} />
        </Flash>
      ) : null}
      <NoteEditor value={text} onChange={setText} onSubmit={() => byKeys(false)} onSubmitDirect={() => byKeys(true)} onEditLast={onEditLast} project={ctx.target.projectId} label={t('Comment')}>
        {canCreateInternal ? (
          <FormControl>
            <Checkbox checked={internal} onChange={(event) => setInternal(event.target.checked)} />
            <FormControl.Label>{t('Make this an internal note')}</FormControl.Label>
          </FormControl>
        ) : null}
        <ButtonGroup className={styles.submitGroup}>
          <Button variant="primary" onClick={submit} disabled={text.trim() === '' || busy}>
            {label}
          </Button>
          <ActionMenu>
            <ActionMenu.Button variant="primary" aria-label={t('Comment type')} disabled={busy}>
              {''}
            </ActionMenu.Button>
            <ActionMenu.Overlay align="end">
              <ActionList selectionVariant="single">
                <ActionList.Item selected={!thread} onSelect={() => setThread(false)}>
                  {t('Comment')}
                  <ActionList.Description variant="block">{t('Add a general comment to this merge request.')}</ActionList.Description>
                </ActionList.Item>
                <ActionList.Item selected={thread} onSelect={() => setThread(true)}>
                  {t('Start a thread')}
                  <ActionList.Description variant="block">{t('Discuss a specific suggestion or question that needs to be resolved.')}</ActionList.Description>
                </ActionList.Item>
              </ActionList>
            </ActionMenu.Overlay>
          </ActionMenu>
        </ButtonGroup>
        <Button onClick={addToReview} disabled={text.trim() === '' || busy}>
          {reviewInProgress ? t('Add to review') : t('Start a review')}
        </Button>
      </NoteEditor>
    </div>
  );
}
