import { KebabHorizontalIcon, PencilIcon, ReplyIcon } from '@primer/octicons-react';
import { ActionList, ActionMenu, Button, Flash, IconButton, Label, useConfirm } from '@primer/react';
import { t } from '@tributary/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useRef, useState } from 'react';
import { COPIED_FEEDBACK_MS, copyText } from '../../components/CopyButton';
import { OverlayButton } from '../../components/OverlayButton';
import { EntityAvatar } from '../../components/EntityAvatar';
import { TimeAgo } from '../../components/TimeAgo';
import { ApiError, errorMessage } from '../../lib/api-error';
import { SuggestedNoteBody } from '../suggestions';
import { NoteAwards } from '../emoji';
import { AbuseReportDrawer } from '../abuse';
import { notesApi, notesKeys, patchDiscussion, patchNote } from './api';
import { roleBadges } from './activity';
import { NoteEditor } from './NoteEditor';
import { useNotesContext } from './NotesContext';
import { noteActions } from './note-permissions';
import styles from './Notes.module.css';
import type { NoteEntity } from './types';

export const CONFLICT_MESSAGE = 'This comment changed after you started editing it. Review the updated comment to ensure information is not lost.';

/** "comment" or "internal note": the word GitLab's confirmations put in. */
export const commentType = (note: Pick<NoteEntity, 'internal'>) => (note.internal ? t('internal note') : t('comment'));

/** One user note: avatar, name, badges, time, body, and its actions; edits in place. */
export function NoteItem({ note, discussionId, onReply }: { note: NoteEntity; discussionId: string; /** a single comment's reply button (it becomes a thread) */ onReply?: () => void }) {
  const ctx = useNotesContext();
  const client = useQueryClient();
  const confirm = useConfirm();
  const editing = ctx.editingNoteId === note.id;
  const own = ctx.user !== null && note.author?.id === ctx.user.id;
  const actions = noteActions(note);
  const [draft, setDraft] = useState(note.body);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  // Report abuse only for someone else's note
  const [reporting, setReporting] = useState(false);
  // The awards row (its emoji picker is a whole overlay) follows in a background render when notes
  // mount in an urgent one (scrolling the list): the notes themselves show in short tasks.
  const awardsShown = useDeferredValue(true, false);
  // the version the editor started from: a newer one arriving means someone else edited it
  const startedFrom = useRef(note.lock_version);
  const [conflict, setConflict] = useState(false);

  // a failed save reopens the editor with the user's text: nothing to reset then
  const reopening = useRef(false);
  useEffect(() => {
    if (editing && reopening.current) reopening.current = false;
    else if (editing) {
      startedFrom.current = note.lock_version;
      setDraft(note.body);
      setConflict(false);
    }
    // only when editing starts
  // eslint-disable-next-line react-hooks/exhaustive-deps -- only when editing starts
  }, [editing]);
  useEffect(() => {
    if (editing && note.lock_version !== startedFrom.current) setConflict(true);
  }, [editing, note.lock_version]);

  const update = useMutation({
    mutationFn: (body: string) => notesApi.update(ctx.target, { id: note.id, lock_version: startedFrom.current }, body),
    onMutate: (body) => {
      const previous = note;
      // optimistic: the new text shows at once, the old one returns on failure
      patchNote(client, ctx.target, note.id, (current) => ({ ...current, body }));
      ctx.setEditingNoteId(null);
      return { previous };
    },
    onSuccess: (saved) => {
      setError(null);
      patchNote(client, ctx.target, note.id, () => saved);
    },
    onError: (failure, body, context) => {
      if (failure instanceof ApiError && failure.isNotFound) {
        patchDiscussion(client, ctx.target, discussionId, (d) => ({ ...d, notes: d.notes.filter((n) => n.id !== note.id) }));
        return;
      }
      if (context) patchNote(client, ctx.target, note.id, () => context.previous);
      setDraft(body);
      if (failure instanceof ApiError && failure.status === 409) {
        setConflict(true);
        void client.invalidateQueries({ queryKey: notesKeys.discussions(ctx.target.projectId, ctx.target.iid) });
      } else setError(errorMessage(failure));
      reopening.current = true;
      ctx.setEditingNoteId(note.id);
    },
  });

  const remove = useMutation({
    mutationFn: () => notesApi.remove(ctx.target, note.id),
    onSuccess: () => patchDiscussion(client, ctx.target, discussionId, (d) => (d.notes.length <= 1 ? null : { ...d, notes: d.notes.filter((n) => n.id !== note.id) })),
    onError: () => setError(t('Something went wrong while deleting your note. Please try again.')),
  });

  const askDelete = async () => {
    const yes = await confirm({
      title: t('Delete comment'),
      content: t('Are you sure you want to delete this %{commentType}?', { commentType: commentType(note) }),
      confirmButtonContent: t('Delete comment'),
      confirmButtonType: 'danger',
    });
    if (yes) remove.mutate();
  };

  const cancelEdit = async () => {
    if (draft !== note.body) {
      const yes = await confirm({
        title: t('Cancel editing'),
        content: t('Are you sure you want to cancel editing this %{commentType}?', { commentType: commentType(note) }),
        confirmButtonContent: t('Cancel editing'),
        cancelButtonContent: t('Continue editing'),
      });
      if (!yes) return;
    }
    setError(null);
    ctx.setEditingNoteId(null);
  };

  const save = () => {
    if (draft.trim() === '' || update.isPending) return;
    if (conflict) {
      // saving after the warning means the user has seen the newer version
      startedFrom.current = note.lock_version;
      setConflict(false);
    }
    update.mutate(draft);
  };

  const copyLink = async () => {
    const url = `${window.location.origin}${window.location.pathname}#note_${note.id}`;
    try {
      await copyText(url);
      setCopied(true);
    } catch {
      // the browser refused the clipboard: the address bar gets the link instead
      window.history.replaceState(null, '', `#note_${note.id}`);
    }
  };
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const badges = roleBadges(note, ctx.noteableAuthorId, note.author ? ctx.roles.get(note.author.id) : undefined);
  return (
    <div className={styles.note} id={`note_${note.id}`} data-note-id={note.id} data-target={ctx.targetNoteId === note.id ? 'true' : undefined}>
      <div className={styles.avatar}>
        <EntityAvatar name={note.author?.name ?? '?'} id={note.author?.id ?? 0} src={note.author?.avatar_url} size={32} square={false} />
      </div>
      <div className={styles.noteMain}>
        <div className={styles.noteHeader}>
          <strong>{note.author?.name ?? t('Ghost User')}</strong>
          <span className="fgMuted">@{note.author?.username ?? 'ghost'}</span>
          <a href={`#note_${note.id}`} className={styles.time}>
            <TimeAgo date={note.created_at} />
          </a>
          {note.internal ? <Label variant="attention">{t('Internal note')}</Label> : null}
          <span className={styles.noteActions}>
            {badges.map((badge) => (
              <Label key={badge}>{t(badge)}</Label>
            ))}
            {onReply ? <IconButton icon={ReplyIcon} variant="invisible" size="small" aria-label={t('Reply to comment')} onClick={onReply} /> : null}
            {actions.edit && !editing ? <IconButton icon={PencilIcon} variant="invisible" size="small" aria-label={t('Edit comment')} onClick={() => ctx.setEditingNoteId(note.id)} /> : null}
            {ctx.user ? (
              <OverlayButton icon={KebabHorizontalIcon} aria-label={t('More actions')}>
                {({ anchorRef, setOpen }) => (
                  <ActionMenu open onOpenChange={setOpen} anchorRef={anchorRef}>
                    <ActionMenu.Overlay align="end">
                      <ActionList>
                        <ActionList.Item onSelect={() => void copyLink()}>{t('Copy link')}</ActionList.Item>
                        {!own && note.author ? <ActionList.Item onSelect={() => setReporting(true)}>{t('Report abuse to administrator')}</ActionList.Item> : null}
                        {actions.delete ? (
                          <ActionList.Item variant="danger" onSelect={() => void askDelete()}>
                            {t('Delete comment')}
                          </ActionList.Item>
                        ) : null}
                      </ActionList>
                    </ActionMenu.Overlay>
                  </ActionMenu>
                )}
              </OverlayButton>
            ) : null}
          </span>
        </div>
        {copied ? (
          <p role="status" className={styles.copied}>
            {t('Link copied to clipboard.')}
          </p>
        ) : null}
        {error ? (
          <Flash variant="danger" role="alert" className={styles.alert}>
            <span>{error}</span>
          </Flash>
        ) : null}
        {editing ? (
          <>
            {conflict ? (
              <Flash variant="danger" role="alert" className={styles.alert}>
                {t(CONFLICT_MESSAGE)} <a href={`#note_${note.id}`}>{t('Updated comment')}</a>
              </Flash>
            ) : null}
            <NoteEditor value={draft} onChange={setDraft} onSubmit={save} onCancel={() => void cancelEdit()} project={ctx.target.projectId} label={t('Edit comment')} autoFocus>
              <Button variant="primary" onClick={save} disabled={draft.trim() === '' || update.isPending}>
                {t('Save comment')}
              </Button>
              <Button onClick={() => void cancelEdit()}>{t('Cancel')}</Button>
            </NoteEditor>
          </>
        ) : (
          <SuggestedNoteBody note={note} target={ctx.target} discussionId={discussionId} />
        )}
        {note.last_edited_at && !editing ? (
          <p className={`fgMuted ${styles.edited}`}>
            {t('Edited')} <TimeAgo date={note.last_edited_at} />
            {note.last_edited_by ? ` ${t('by %{name}', { name: note.last_edited_by.name })}` : ''}
          </p>
        ) : null}
        {reporting && note.author ? (
          <AbuseReportDrawer userId={note.author.id} reportedFromUrl={`${window.location.origin}${window.location.pathname}#note_${note.id}`} onClose={() => setReporting(false)} />
        ) : null}
        {awardsShown ? (
          <NoteAwards projectId={ctx.target.projectId} iid={ctx.target.iid} noteId={note.id} user={ctx.user} canAward={actions.award} />
        ) : ctx.user ? (
          <div className={styles.awardsPending} aria-hidden="true" />
        ) : null}
      </div>
    </div>
  );
}
