import { CheckCircleIcon, ChevronDownIcon, ChevronRightIcon } from '@primer/octicons-react';
import { Button, Flash, useConfirm } from '@primer/react';
import { n, t } from '@tributary/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { EntityAvatar } from '../../components/EntityAvatar';
import { TimeAgo } from '../../components/TimeAgo';
import { errorMessage } from '../../lib/api-error';
import { DiffExcerpt } from '../diff-notes/DiffExcerpt';
import { threadLines } from '../diff-notes/threads';
import { DraftNoteItem } from '../review/DraftNoteItem';
import { keyboardSubmitKind } from '../review/review-rules';
import { useReviewActions } from '../review/useReviewActions';
import { notesApi, notesKeys, patchDiscussion } from './api';
import { autosaveKey, replyAuthors, resolutionText } from './activity';
import { useAutosave } from './autosave';
import { NoteEditor } from './NoteEditor';
import { suggestionSourceOf } from '../suggestions/SuggestionPreview';
import { commentType, NoteItem } from './NoteItem';
import { useNotesContext } from './NotesContext';
import styles from './Notes.module.css';
import { SystemNote } from './SystemNote';
import { canResolveThread } from './note-permissions';
import { replyResolution } from './resolve-status';
import type { DiscussionEntity, NoteEntity } from './types';

/** One entry of the Activity list: a system note, a comment, or a thread with replies. */
export const DiscussionItem = memo(function DiscussionItem({ discussion }: { discussion: DiscussionEntity }) {
  const first = discussion.notes[0];
  if (!first) return null;
  if (first.system) return <SystemNote note={first} />;
  return <Thread discussion={discussion} />;
});

function Thread({ discussion }: { discussion: DiscussionEntity }) {
  const ctx = useNotesContext();
  const [first, ...replies] = discussion.notes;
  const targeted = ctx.targetNoteId !== null && replies.some((note) => note.id === ctx.targetNoteId);
  const targetedAny = ctx.targetNoteId !== null && discussion.notes.some((note) => note.id === ctx.targetNoteId);
  const [expanded, setExpanded] = useState(true);
  const showReplies = expanded || targeted;
  const resolution = resolutionText(discussion, discussion.notes.some((note) => note.resolved_by_push));
  const resolvedBy = discussion.notes.find((note) => note.resolvable && note.resolved_by)?.resolved_by;
  const lastReply = replies[replies.length - 1];
  // replying to a single comment turns it into a thread
  const [replying, setReplying] = useState(false);
  const draftReplies = ctx.user ? ctx.drafts.filter((draft) => draft.discussion_id === discussion.id) : [];
  // a resolved thread shows collapsed (GitLab's notes app), unless a link points into it
  const [threadOpen, setThreadOpen] = useState(resolution === null);
  const lines = threadLines(discussion);
  if (resolution !== null && !threadOpen && !targetedAny) {
    return (
      <article className={styles.thread} aria-label={t('Thread')} data-discussion-id={discussion.id}>
        <button type="button" className={styles.repliesToggle} aria-expanded={false} onClick={() => setThreadOpen(true)}>
          <ChevronRightIcon />
          <CheckCircleIcon />
          <span>{t('%{name} started a thread', { name: first!.author?.name ?? t('Ghost User') })}</span>
          <span className="fgMuted">
            {t(resolution)}
            {resolvedBy ? ` ${t('by %{name}', { name: resolvedBy.name })}` : ''}
          </span>
        </button>
      </article>
    );
  }

  return (
    <article className={styles.thread} aria-label={discussion.individual_note ? t('Comment') : t('Thread')} data-discussion-id={discussion.id}>
      <DiffExcerpt discussion={discussion} />
      {lines ? <p className={styles.threadLines}>{t('Comment on lines %{range}', { range: lines })}</p> : null}
      <NoteItem note={first!} discussionId={discussion.id} onReply={discussion.individual_note && ctx.canReply && !replying ? () => setReplying(true) : undefined} />
      {replies.length > 0 ? (
        <div className={styles.replies}>
          <button type="button" className={styles.repliesToggle} aria-expanded={showReplies} onClick={() => setExpanded(!showReplies)}>
            {showReplies ? <ChevronDownIcon /> : <ChevronRightIcon />}
            {showReplies ? (
              <span>{t('Collapse replies')}</span>
            ) : (
              <>
                <span className={styles.replyAvatars}>
                  {replyAuthors(discussion).map((author) => (
                    <EntityAvatar key={author.id} name={author.name} id={author.id} src={author.avatar_url} size={24} square={false} />
                  ))}
                </span>
                <span>{n('%d reply', '%d replies', replies.length)}</span>
                {lastReply ? (
                  <span className="fgMuted">
                    {t('Last reply by %{name}', { name: lastReply.author?.name ?? t('Ghost User') })} <TimeAgo date={lastReply.created_at} />
                  </span>
                ) : null}
              </>
            )}
          </button>
          {showReplies ? replies.map((note) => <NoteItem key={note.id} note={note} discussionId={discussion.id} />) : null}
        </div>
      ) : null}
      {ctx.user ? draftReplies.map((draft) => <DraftNoteItem key={draft.id} draft={draft} author={ctx.user!} target={ctx.target} inThread />) : null}
      {resolution ? (
        <p className={styles.resolved}>
          <Button variant="invisible" size="small" leadingVisual={ChevronDownIcon} aria-expanded onClick={() => setThreadOpen(false)}>
            {t('Collapse thread')}
          </Button>
          <CheckCircleIcon /> <span>{t(resolution)}</span>
          {resolvedBy ? <span className="fgMuted"> {t('by %{name}', { name: resolvedBy.name })}</span> : null}
        </p>
      ) : null}
      {ctx.canReply && (!discussion.individual_note || replying || draftReplies.length > 0) ? (
        <ReplyArea discussion={discussion} canResolve={canResolveThread(discussion)} resolved={resolution !== null} startOpen={replying} onClosed={() => setReplying(false)} />
      ) : null}
    </article>
  );
}

function ReplyArea({
  discussion,
  canResolve,
  resolved,
  startOpen = false,
  onClosed,
}: {
  discussion: DiscussionEntity;
  /** the reader may resolve this thread (every resolvable note says so) */
  canResolve: boolean;
  resolved: boolean;
  /** opened by a single comment's reply button */
  startOpen?: boolean;
  onClosed?: () => void;
}) {
  const ctx = useNotesContext();
  const client = useQueryClient();
  const confirm = useConfirm();
  const [open, setOpenState] = useState(startOpen);
  const setOpen = (value: boolean) => {
    setOpenState(value);
    if (!value) onClosed?.();
  };
  const review = useReviewActions(ctx.target);
  const reviewInProgress = ctx.drafts.length > 0;
  const [text, setText, clear] = useAutosave(autosaveKey(ctx.noteableType, ctx.target.iid, { discussionId: discussion.id }));
  const [error, setError] = useState<string | null>(null);
  const opened = open || text !== '';
  const [resolveChecked, setResolveChecked] = useState(false);
  const resolution = replyResolution(resolved, resolveChecked);

  const reply = useMutation({
    mutationFn: (body: string) => notesApi.reply(ctx.target, discussion.id, body),
    onSuccess: (note) => {
      setError(null);
      clear();
      setOpen(false);
      patchDiscussion(client, ctx.target, discussion.id, (d) => ({ ...d, individual_note: false, notes: [...d.notes, note] }));
      // the checkbox: the reply first, then the thread's new state
      if (canResolve && resolution.resolvedAfter !== resolved) resolve.mutate(resolution.resolvedAfter);
      setResolveChecked(false);
    },
    // the reply stays in the field
    onError: (failure) => setError(errorMessage(failure)),
  });
  const resolve = useMutation({
    mutationFn: (value: boolean) => notesApi.resolve(ctx.target, discussion.id, value),
    onSuccess: (updated) => {
      setError(null);
      patchDiscussion(client, ctx.target, discussion.id, () => updated);
    },
    onError: () => setError(t('Something went wrong while resolving this discussion. Please try again.')),
    onSettled: () => void client.invalidateQueries({ queryKey: notesKeys.discussions(ctx.target.projectId, ctx.target.iid), refetchType: 'none' }),
  });

  const submit = () => {
    if (reply.isPending) return;
    // an empty reply cancels the form
    if (text.trim() === '') return setOpen(false);
    reply.mutate(text);
  };
  const addToReview = () => {
    if (text.trim() === '' || review.addDraft.isPending) return;
    review.addDraft.mutate(
      { note: text, discussionId: discussion.id, resolveDiscussion: canResolve && resolution.resolvedAfter },
      {
        onSuccess: () => {
          setError(null);
          clear();
          setOpen(false);
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    );
  };
  // Ctrl/Cmd+Enter adds to a review in progress, Shift+Ctrl/Cmd+Enter replies now
  const byKeys = (shift: boolean) => (keyboardSubmitKind({ shift, reviewInProgress, canReview: true }) === 'draft' ? addToReview() : submit());
  const cancel = async () => {
    if (text.trim() !== '') {
      const yes = await confirm({
        title: t('Discard changes'),
        content: t('Are you sure you want to cancel creating this %{commentType}?', { commentType: commentType(discussion.notes[0]!) }),
        confirmButtonContent: t('Discard changes'),
        cancelButtonContent: t('Continue editing'),
      });
      if (!yes) return;
    }
    clear();
    setOpen(false);
  };

  return (
    <div className={styles.replyArea}>
      {error ? (
        <Flash variant="danger" role="alert" className={styles.alert}>
          {error}
        </Flash>
      ) : null}
      {opened ? (
        <NoteEditor
          value={text}
          onChange={setText}
          onSubmit={() => byKeys(false)}
          onSubmitDirect={() => byKeys(true)}
          onCancel={() => void cancel()}
          project={ctx.target.projectId}
          label={t('Reply to comment')}
          placeholder={t('Reply…')}
          autoFocus={open}
          // a reply in a diff thread takes its position: its suggestions preview as they will post
          suggestionSource={suggestionSourceOf(ctx.target.projectId, (discussion.notes[0] as NoteEntity & { position?: Parameters<typeof suggestionSourceOf>[1] }).position)}
        >
          <Button variant="primary" onClick={submit} disabled={text.trim() === '' || reply.isPending || review.addDraft.isPending}>
            {t('Reply')}
          </Button>
          <Button onClick={addToReview} disabled={text.trim() === '' || reply.isPending || review.addDraft.isPending}>
            {reviewInProgress ? t('Add to review') : t('Start a review')}
          </Button>
          <Button onClick={() => void cancel()}>{t('Cancel')}</Button>
          {canResolve ? (
            <span className={styles.resolveChoice}>
              <label>
                <input type="checkbox" checked={resolveChecked} onChange={(event) => setResolveChecked(event.target.checked)} /> {t(resolution.label)}
              </label>
              <span className="fgMuted" aria-live="polite">
                {t(resolution.message)}
              </span>
            </span>
          ) : null}
        </NoteEditor>
      ) : (
        <div className={styles.replyRow}>
          <input className={styles.replyPlaceholder} placeholder={t('Reply…')} aria-label={t('Reply to comment')} readOnly onFocus={() => setOpen(true)} onClick={() => setOpen(true)} />
          {canResolve ? (
            <Button onClick={() => resolve.mutate(!resolved)} disabled={resolve.isPending}>
              {resolved ? t('Unresolve thread') : t('Resolve thread')}
            </Button>
          ) : null}
        </div>
      )}
    </div>
  );
}
