import { ChevronDownIcon, ChevronUpIcon } from '@primer/octicons-react';
import { ActionList, ActionMenu, Button, Flash, IconButton } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { n, t } from '@tributary/contracts';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { PageError } from '../../components/PageError';
import { useLoadPagesWhenIdle } from '../../components/useLoadPagesWhenIdle';
import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { GUEST, projectAccessLevel, REPORTER } from '../../lib/permissions';
import { measureAfterLayout, scrollAfterAttaching, usePageOffset } from '../../lib/window-virtualizer';
import { useDraftNotes, PendingDrafts, newCommentDrafts } from '../review';
import { sessionQuery } from '../session';
import { authorRolesQuery, discussionsQuery } from './api';
import {
  activityFormKind,
  filterDiscussions,
  FILTER_ALL,
  FILTER_COMMENTS,
  FILTER_HISTORY,
  filterStorageKey,
  lastOwnNote,
  noteIdFromHash,
  parseFilter,
  parseSort,
  sortDiscussions,
  sortStorageKey,
  type NotesFilter,
  type SortDirection,
} from './activity';
import { storage } from './autosave';
import { CommentForm } from './CommentForm';
import { DiscussionItem } from './DiscussionItem';
import { SignedOutPrompt } from './SignedOutPrompt';
import { NotesContext, type AuthorRole, type NotesContextValue } from './NotesContext';
import styles from './Notes.module.css';
import { DISCUSSION_JUMP_DEBOUNCE_MS, jumpTarget, unresolvedIds } from './unresolved';

const NO_ROLES: ReadonlyMap<number, AuthorRole> = new Map();

const NOTEABLE_TYPE = 'MergeRequest';
/** Skeleton rows while the first page loads (no prerendered count without server rendering). */
const SKELETONS = 3;

/**
 * The Activity section of a merge request (element id `notes`): the threads
 * in keyset pages loaded one after another, in a window-virtualised list so thousands stay
 * responsive, with the comment form, filter and sort.
 */
export function ActivitySection({ project, mr }: { project: Project; mr: MergeRequest }) {
  const session = useQuery(sessionQuery());
  const user = session.data?.user ?? null;
  const level = user ? projectAccessLevel(project, user.is_admin) : 0;
  const locked = (mr as MergeRequest & { discussion_locked?: boolean | null }).discussion_locked === true;
  const canReply = user !== null && (!locked || level >= GUEST);
  const target = useMemo(() => ({ projectId: project.id, iid: mr.iid }), [project.id, mr.iid]);
  const drafts = useDraftNotes(target, user !== null);
  const rolesQuery = useQuery(authorRolesQuery(project.id, mr.iid));
  // without the roles (an error) the notes still show, only without access-level badges
  const roles = useMemo(() => (rolesQuery.data ? new Map(Object.entries(rolesQuery.data).map(([id, role]) => [Number(id), role])) : NO_ROLES), [rolesQuery.data]);

  const [sort, setSortState] = useState<SortDirection>(() => parseSort(storage.get(sortStorageKey(NOTEABLE_TYPE))));
  const [filter, setFilterState] = useState<NotesFilter>(() => parseFilter(storage.get(filterStorageKey(NOTEABLE_TYPE))));
  const setSort = (value: SortDirection) => {
    setSortState(value);
    storage.set(sortStorageKey(NOTEABLE_TYPE), value);
  };
  const setFilter = (value: NotesFilter) => {
    setFilterState(value);
    storage.set(filterStorageKey(NOTEABLE_TYPE), String(value));
  };

  const query = useInfiniteQuery(discussionsQuery(project.id, mr.iid));
  // the pages load one after another in the background; the first shows at once
  useLoadPagesWhenIdle(query);

  const all = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const visible = useMemo(() => sortDiscussions(filterDiscussions(all, filter), sort), [all, filter, sort]);
  // The first threads render with the page: only the first screenful is in the DOM (the list is
  // virtualised), and in a background render the page's other answers arriving one by one (the
  // widget, the roles, the reviews, the award emoji) would each interrupt and restart it.
  // Later changes (the next pages, another filter or sort) render in the background (a transition):
  // React renders them in short slices between frames, so no task runs long.
  const deferred = useDeferredValue(visible);
  const listed = deferred.length === 0 ? visible : deferred;

  const location = useLocation();
  const targetNoteId = noteIdFromHash(location.hash);
  const [editingNoteId, setEditingNoteId] = useState<number | null>(null);
  // the note to bring into view: the hash's, or the one Up opened for editing
  const [scrollToNoteId, setScrollToNoteId] = useState<number | null>(targetNoteId);
  useEffect(() => setScrollToNoteId(targetNoteId), [targetNoteId]);
  const context: NotesContextValue = useMemo(
    () => ({
      target,
      projectPath: project.path_with_namespace,
      noteableType: NOTEABLE_TYPE,
      noteableAuthorId: mr.author?.id ?? null,
      user,
      canReply,
      editingNoteId,
      setEditingNoteId,
      targetNoteId,
      drafts,
      roles,
    }),
    [target, project.path_with_namespace, mr.author?.id, user, canReply, editingNoteId, targetNoteId, drafts, roles],
  );

  // jump to the next or previous unresolved thread, in the order the list shows them
  const unresolved = useMemo(() => unresolvedIds(all), [all]);
  const [jump, setJump] = useState<{ id: string; nonce: number } | null>(null);
  const jumpTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(jumpTimer.current), []);
  const jumpState = useRef({ visible, filter, current: jump?.id ?? null });
  jumpState.current = { visible, filter, current: jump?.id ?? null };
  const jumpTo = useCallback((direction: 'next' | 'previous') => {
    window.clearTimeout(jumpTimer.current);
    jumpTimer.current = window.setTimeout(() => {
      const { visible: shown, filter: current, current: from } = jumpState.current;
      // history only hides every thread: show all activity to land on one
      const list = current === FILTER_HISTORY ? sortDiscussions(all, sort) : shown;
      if (current === FILTER_HISTORY) setFilter(FILTER_ALL);
      const ids = list.map((discussion) => discussion.id);
      const id = jumpTarget(unresolvedIds(list), ids, from, direction);
      if (id !== null) setJump((previous) => ({ id, nonce: (previous?.nonce ?? 0) + 1 }));
    }, DISCUSSION_JUMP_DEBOUNCE_MS);
    // setFilter is stable in effect (it only writes state and storage)
  }, [all, sort]);

  const editLast = useCallback(() => {
    const note = user ? lastOwnNote(all, user.id) : null;
    if (!note) return;
    setEditingNoteId(note.id);
    setScrollToNoteId(note.id);
  }, [all, user]);

  const formKind = activityFormKind({ filter, signedIn: user !== null, canReply });
  const form =
    formKind === 'history-notice' ? (
      <Flash className={styles.filterNotice}>
        {t("You're only seeing other activity in the feed. To add a comment, switch to one of the following options")}
        <div className={styles.noticeActions}>
          <Button size="small" onClick={() => setFilter(FILTER_ALL)}>
            {t('Show all activity')}
          </Button>
          <Button size="small" onClick={() => setFilter(FILTER_COMMENTS)}>
            {t('Show comments only')}
          </Button>
        </div>
      </Flash>
    ) : formKind === 'sign-in' ? (
      <SignedOutPrompt returnTo={`${location.pathname}${location.search}`} />
    ) : formKind === 'form' ? (
      <CommentForm canCreateInternal={level >= REPORTER} onEditLast={editLast} />
    ) : null;
  const pending = user ? <PendingDrafts drafts={newCommentDrafts(drafts)} author={user} target={target} /> : null;

  return (
    <NotesContext.Provider value={context}>
      <section id="notes" aria-labelledby="notes-heading" className={styles.section}>
        <header className={styles.header}>
          <h2 id="notes-heading" className={styles.heading}>
            {t('Activity')}
          </h2>
          {unresolved.length > 0 ? (
            <div className={styles.unresolved} role="group" aria-label={t('Unresolved threads')}>
              <span>{n('%d unresolved thread', '%d unresolved threads', unresolved.length)}</span>
              <IconButton icon={ChevronUpIcon} size="small" aria-label={t('Go to previous unresolved thread')} onClick={() => jumpTo('previous')} />
              <IconButton icon={ChevronDownIcon} size="small" aria-label={t('Go to next unresolved thread')} onClick={() => jumpTo('next')} />
            </div>
          ) : null}
          <ActionMenu>
            <ActionMenu.Button size="small" aria-label={t('Sort or filter')}>
              {sort === 'desc' ? t('Newest first') : t('Oldest first')}
            </ActionMenu.Button>
            <ActionMenu.Overlay align="end">
              <ActionList>
                <ActionList.Group selectionVariant="single">
                  <ActionList.GroupHeading>{t('Sort')}</ActionList.GroupHeading>
                  <ActionList.Item selected={sort === 'desc'} onSelect={() => setSort('desc')}>
                    {t('Newest first')}
                  </ActionList.Item>
                  <ActionList.Item selected={sort === 'asc'} onSelect={() => setSort('asc')}>
                    {t('Oldest first')}
                  </ActionList.Item>
                </ActionList.Group>
                <ActionList.Divider />
                <ActionList.Group selectionVariant="single">
                  <ActionList.GroupHeading>{t('Filter')}</ActionList.GroupHeading>
                  <ActionList.Item selected={filter === FILTER_ALL} onSelect={() => setFilter(FILTER_ALL)}>
                    {t('Show all activity')}
                  </ActionList.Item>
                  <ActionList.Item selected={filter === FILTER_COMMENTS} onSelect={() => setFilter(FILTER_COMMENTS)}>
                    {t('Show comments only')}
                  </ActionList.Item>
                  <ActionList.Item selected={filter === FILTER_HISTORY} onSelect={() => setFilter(FILTER_HISTORY)}>
                    {t('Show history only')}
                  </ActionList.Item>
                </ActionList.Group>
              </ActionList>
            </ActionMenu.Overlay>
          </ActionMenu>
        </header>
        {locked ? (
          <Flash variant="warning" className={styles.alert}>
            {t('The discussion in this %{type} is locked. Only project members can comment.', { type: t('merge request') })}
          </Flash>
        ) : null}
        {sort === 'asc' ? form : null}
        {query.isPending ? (
          <div role="status" aria-label={t('Loading activity')} className={styles.skeletons}>
            {Array.from({ length: SKELETONS }, (_, index) => (
              <SkeletonBox key={index} height="64px" />
            ))}
          </div>
        ) : query.isError && all.length === 0 ? (
          <PageError error={query.error} onRetry={() => void query.refetch()} />
        ) : visible.length === 0 ? (
          <p className={`fgMuted ${styles.empty}`}>{t('No activity yet.')}</p>
        ) : (
          <DiscussionList discussions={listed} scrollToNoteId={scrollToNoteId} jump={jump} />
        )}
        {sort === 'asc' ? pending : null}
        {query.isFetchingNextPage ? (
          <p role="status" className="fgMuted">
            {t('Loading more activity…')}
          </p>
        ) : null}
        {sort === 'desc' ? pending : null}
        {sort === 'desc' ? form : null}
      </section>
    </NotesContext.Provider>
  );
}

/** Threads rendered beyond the window's edges, each way: about one and a half window heights of them, within these bounds. */
const OVERSCAN = { min: 2, max: 10, windows: 1.5 };

/** Enough threads to fill that height beyond each edge: a few tall threads, or many short comments and system notes. */
function overscanFor(discussions: ReturnType<typeof sortDiscussions>): number {
  const sample = discussions.slice(0, 50);
  if (sample.length === 0) return OVERSCAN.min;
  const average = sample.reduce((sum, discussion) => sum + estimatedHeight(discussion), 0) / sample.length;
  return Math.min(OVERSCAN.max, Math.max(OVERSCAN.min, Math.round((OVERSCAN.windows * window.innerHeight) / average)));
}

/** A thread's height before it is measured: a system note's line, or its notes' height. */
function estimatedHeight(discussion: ReturnType<typeof sortDiscussions>[number]): number {
  return discussion.notes[0]?.system ? 40 : 32 + discussion.notes.length * 150;
}

/** Only the threads near the viewport are in the DOM (and render their Markdown). */
function DiscussionList({
  discussions,
  scrollToNoteId: targetNoteId,
  jump,
}: {
  discussions: ReturnType<typeof sortDiscussions>;
  scrollToNoteId: number | null;
  /** the unresolved thread jumped to; the nonce repeats a jump to the same one */
  jump: { id: string; nonce: number } | null;
}) {
  const listRef = useRef<HTMLOListElement>(null);
  const offset = usePageOffset(listRef);
  const overscan = useMemo(() => overscanFor(discussions), [discussions]);
  const [scrollToFn] = useState(scrollAfterAttaching);
  // The first render, part of the page's (the longest task of a load), holds only the threads on
  // screen; those beyond its edges follow in the next, a task of their own.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  // A close estimate (a thread is about as tall as its notes) and an overscan in pixels keep each render
  // to the threads on screen: the first screenful shows sooner, and a fast scroll mounts a few
  // threads per frame rather than dozens (no task over 200 ms).
  const virtualizer = useWindowVirtualizer({
    count: discussions.length,
    estimateSize: (index) => estimatedHeight(discussions[index]!),
    overscan: mounted ? overscan : 0,
    scrollMargin: offset,
    getItemKey: (index) => discussions[index]!.id,
    // the window's size from the start: the virtualiser otherwise measures it after the first render,
    // which then holds no threads, and the first screenful waits for a second render
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    // sizes and the first scroll are read after the browser's layout, not inside the commit
    measureElement: measureAfterLayout,
    scrollToFn,
  });

  // `#note_{id}` or the note Up edits: once its thread has loaded, bring it into view (once per target)
  const scrolledTo = useRef<number | null>(null);
  useEffect(() => {
    if (targetNoteId === null || scrolledTo.current === targetNoteId) return;
    const index = discussions.findIndex((discussion) => discussion.notes.some((note) => note.id === targetNoteId));
    if (index < 0) return;
    scrolledTo.current = targetNoteId;
    virtualizer.scrollToIndex(index, { align: 'start' });
    // the estimate may be off: once it is rendered and measured, scroll to the note itself
    window.setTimeout(() => document.getElementById(`note_${targetNoteId}`)?.scrollIntoView({ block: 'center' }), 150);
  }, [discussions, targetNoteId, virtualizer]);

  // a jump: the virtualiser brings the thread's row in, then the thread itself is centred
  useEffect(() => {
    if (!jump) return;
    const index = discussions.findIndex((discussion) => discussion.id === jump.id);
    if (index < 0) return;
    virtualizer.scrollToIndex(index, { align: 'center' });
    const timer = window.setTimeout(() => document.querySelector(`[data-discussion-id="${CSS.escape(jump.id)}"]`)?.scrollIntoView({ block: 'center' }), 150);
    return () => window.clearTimeout(timer);
    // only a new jump scrolls; the list growing meanwhile does not
  // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new jump scrolls
  }, [jump]);

  const items = virtualizer.getVirtualItems();
  return (
    <ol ref={listRef} className={styles.list} aria-label={t('Activity')} style={{ height: virtualizer.getTotalSize() }}>
      {items.map((item) => (
        <li
          key={item.key}
          data-index={item.index}
          ref={virtualizer.measureElement}
          className={styles.item}
          data-highlighted={jump?.id === discussions[item.index]!.id ? 'true' : undefined}
          style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
        >
          <DiscussionItem discussion={discussions[item.index]!} />
        </li>
      ))}
    </ol>
  );
}
