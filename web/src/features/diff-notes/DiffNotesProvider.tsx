import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLoadPagesWhenIdle } from '../../components/useLoadPagesWhenIdle';
import type { DiffFile } from '../../lib/diff-file';
import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { GUEST, projectAccessLevel } from '../../lib/permissions';
import { authorRolesQuery, discussionsQuery, storage, NotesContext, type AuthorRole, type NotesContextValue } from '../notes';
import { useDraftNotes } from '../review';
import { sessionQuery } from '../session';
import { DiffNotesContext, type DiffNotesValue, type DragStart, type OpenForm } from './DiffNotesContext';
import { LineTooltip } from './LineTooltip';
import { lineKey, parsePointAttribute, pointFromRows, textPosition } from './position';
import { isReviewed, parseReviews, reviewsKey, setReviewed, type ReviewedFile, type Reviews } from './reviews';
import { indexDiffThreads } from './threads';

const NO_ROLES: ReadonlyMap<number, AuthorRole> = new Map();

/**
 * Diff comments for a merge request's Changes tab: loads the threads (the same cached pages
 * as the Activity section) and the user's drafts, and gives the diff viewer what it needs to
 * place them and to open comment forms. Also the notes context, so the threads in the diff
 * are the Activity section's own thread component (replies, resolve, edit).
 */
export function DiffNotesProvider({ project, mr, files, commentable, children }: { project: Project; mr: MergeRequest; files: readonly DiffFile[]; commentable: boolean; children: ReactNode }) {
  const session = useQuery(sessionQuery());
  const user = session.data?.user ?? null;
  const level = user ? projectAccessLevel(project, user.is_admin) : 0;
  const locked = (mr as MergeRequest & { discussion_locked?: boolean | null }).discussion_locked === true;
  const canReply = user !== null && (!locked || level >= GUEST);
  const target = useMemo(() => ({ projectId: project.id, iid: mr.iid }), [project.id, mr.iid]);

  const discussions = useInfiniteQuery(discussionsQuery(project.id, mr.iid));
  useLoadPagesWhenIdle(discussions);
  const drafts = useDraftNotes(target, user !== null);
  const rolesQuery = useQuery(authorRolesQuery(project.id, mr.iid));
  const roles = useMemo(() => (rolesQuery.data ? new Map(Object.entries(rolesQuery.data).map(([id, role]) => [Number(id), role])) : NO_ROLES), [rolesQuery.data]);

  const headSha = mr.diff_refs?.head_sha ?? null;
  const index = useMemo(
    () => indexDiffThreads(discussions.data?.pages.flatMap((page) => page.items) ?? [], drafts, headSha),
    [discussions.data, drafts, headSha],
  );

  const [form, setForm] = useState<OpenForm | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const key = reviewsKey(project.path_with_namespace, mr.iid);
  const [reviews, setReviews] = useState<Reviews>(() => parseReviews(storage.get(key)));
  useEffect(() => setReviews(parseReviews(storage.get(key))), [key]);

  const refs = useMemo(
    () => (commentable && canReply && mr.diff_refs ? { base_sha: mr.diff_refs.base_sha ?? mr.diff_refs.start_sha, start_sha: mr.diff_refs.start_sha, head_sha: mr.diff_refs.head_sha } : null),
    [commentable, canReply, mr.diff_refs],
  );

  const setCommentsHidden = useCallback((path: string, hide: boolean) => {
    setHidden((current) => {
      if (current.has(path) === hide) return current;
      const next = new Set(current);
      if (hide) next.add(path);
      else next.delete(path);
      return next;
    });
  }, []);
  const markReviewed = useCallback(
    (file: ReviewedFile, reviewed: boolean) => {
      setReviews((current) => {
        const next = setReviewed(current, file, reviewed);
        storage.set(key, Object.keys(next).length > 0 ? JSON.stringify(next) : '');
        return next;
      });
    },
    [key],
  );

  // A press on a line's button, then a release on the same or another line of the file: the range between.
  const drag = useRef<DragStart | null>(null);
  useEffect(() => {
    if (!refs) return;
    const onUp = (event: PointerEvent) => {
      const start = drag.current;
      drag.current = null;
      document.querySelectorAll('[data-drag-over]').forEach((element) => element.removeAttribute('data-drag-over'));
      if (!start) return;
      const over = document.elementFromPoint(event.clientX, event.clientY)?.closest<HTMLElement>('[data-point]');
      const end = over && over.dataset.path === start.path ? over : start.element;
      const endLine = parsePointAttribute((end as HTMLElement).dataset.point) ?? start.row;
      const rows = start.rows();
      const first = pointFromRows(start.path, rows, start.row);
      const last = pointFromRows(start.path, rows, endLine);
      const startFirst = end === start.element || (start.element.compareDocumentPosition(end) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
      const position = textPosition(refs, start.file, first, last, startFirst);
      setForm({ path: start.path, anchor: lineKey(position), position });
    };
    const onOver = (event: PointerEvent) => {
      if (!drag.current) return;
      const over = (event.target as Element | null)?.closest<HTMLElement>('[data-point]');
      if (over && over.dataset.path === drag.current.path) {
        document.querySelectorAll('[data-drag-over]').forEach((element) => element.removeAttribute('data-drag-over'));
        over.setAttribute('data-drag-over', 'true');
      }
    };
    document.addEventListener('pointerup', onUp);
    document.addEventListener('pointerover', onOver);
    return () => {
      document.removeEventListener('pointerup', onUp);
      document.removeEventListener('pointerover', onOver);
    };
  }, [refs]);
  const startDrag = useCallback((start: DragStart) => {
    drag.current = start;
  }, []);

  const value = useMemo<DiffNotesValue>(
    () => ({
      target,
      refs,
      files,
      threadsOf: (path) => index.threads.get(path),
      draftsOf: (path) => index.drafts.get(path),
      hasDrafts: drafts.length > 0,
      form,
      openForm: setForm,
      closeForm: () => setForm(null),
      commentsHidden: (path) => hidden.has(path),
      setCommentsHidden,
      isReviewed: (file) => isReviewed(reviews, file),
      setReviewed: markReviewed,
      startDrag,
    }),
    [target, refs, files, index, drafts, form, hidden, setCommentsHidden, reviews, markReviewed, startDrag],
  );

  const [editingNoteId, setEditingNoteId] = useState<number | null>(null);
  const notes = useMemo<NotesContextValue>(
    () => ({
      target,
      projectPath: project.path_with_namespace,
      noteableType: 'MergeRequest',
      noteableAuthorId: mr.author?.id ?? null,
      user,
      canReply,
      editingNoteId,
      setEditingNoteId,
      targetNoteId: null,
      drafts,
      roles,
    }),
    [target, project.path_with_namespace, mr.author?.id, user, canReply, editingNoteId, drafts, roles],
  );

  return (
    <NotesContext.Provider value={notes}>
      <DiffNotesContext.Provider value={value}>
        {children}
        {refs ? <LineTooltip formOpen={form !== null} /> : null}
      </DiffNotesContext.Provider>
    </NotesContext.Provider>
  );
}
