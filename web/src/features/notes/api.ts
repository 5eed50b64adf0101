import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { api } from '../../app/client';
import { resolveUrl } from '../../lib/api-client';
import type { AuthorRole } from './types';
import type { DiscussionEntity, NoteEntity } from './types';

/**
 * The Activity section's calls (doc/api/discussions.md, notes.md): threads in keyset pages
 * (`pagination=keyset`, the next page named by the Link header), and note and thread writes.
 */
/** Threads per keyset page: GitLab's largest page, so 2,000 threads load in 20 requests. */
export const DISCUSSIONS_PER_PAGE = 100;
/** The first page is smaller: it is all the first screen shows, and it arrives and renders sooner. */
export const FIRST_DISCUSSIONS_PER_PAGE = 20;

/** The first keyset page's URL; `project`: the id or the URL-encoded full path (merge-requests/prefetch.ts). */
export const firstDiscussionsPageUrl = (project: number | string, iid: number) =>
  resolveUrl(`/projects/${project}/merge_requests/${iid}/discussions`, { pagination: 'keyset', per_page: FIRST_DISCUSSIONS_PER_PAGE });

/** The next page's path from the Link header, asking full pages after the smaller first one (a keyset cursor does not depend on the page size). */
export function nextDiscussionsPageUrl(next: string | null): string | undefined {
  if (!next) return undefined;
  const url = new URL(next, 'http://localhost');
  url.searchParams.set('per_page', String(DISCUSSIONS_PER_PAGE));
  return url.pathname + url.search;
}

export interface DiscussionPage {
  items: DiscussionEntity[];
  next: string | null;
}

const mrPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}`;

export const notesKeys = {
  discussions: (projectId: number, iid: number) => ['merge-requests', 'detail', projectId, iid, 'discussions'] as const,
  authorRoles: (projectId: number, iid: number) => ['merge-requests', 'detail', projectId, iid, 'note-author-roles'] as const,
};

/**
 * The role badges' facts for every note author of the merge request (a web-only call: the REST
 * note entity has no human_access or is_contributor). Keyed by user id.
 */
export const authorRolesQuery = (projectId: number, iid: number) =>
  queryOptions({
    queryKey: notesKeys.authorRoles(projectId, iid),
    queryFn: ({ signal }) => api.get<Record<string, AuthorRole>>(`/-/projects/${projectId}/merge_requests/${iid}/note_author_roles`, { signal }),
    retry: false,
  });

export const discussionsQuery = (projectId: number, iid: number) =>
  infiniteQueryOptions({
    queryKey: notesKeys.discussions(projectId, iid),
    queryFn: ({ signal, pageParam }): Promise<DiscussionPage> => api.getKeysetPage<DiscussionEntity>(pageParam, { signal }),
    initialPageParam: firstDiscussionsPageUrl(projectId, iid),
    getNextPageParam: (last) => nextDiscussionsPageUrl(last.next),
  });

export interface NoteTarget {
  projectId: number;
  iid: number;
}

export const notesApi = {
  /** A plain comment, or the first note of a new thread. */
  create: ({ projectId, iid }: NoteTarget, input: { body: string; internal: boolean; thread: boolean }) =>
    input.thread
      ? api.post<DiscussionEntity>(`${mrPath(projectId, iid)}/discussions`, { body: { body: input.body, internal: input.internal } })
      : api.post<NoteEntity>(`${mrPath(projectId, iid)}/notes`, { body: { body: input.body, internal: input.internal } }),
  reply: ({ projectId, iid }: NoteTarget, discussionId: string, body: string) =>
    api.post<NoteEntity>(`${mrPath(projectId, iid)}/discussions/${encodeURIComponent(discussionId)}/notes`, { body: { body } }),
  /** lock_version: the version the editor started from; the server answers 409 if it moved on. */
  update: ({ projectId, iid }: NoteTarget, note: Pick<NoteEntity, 'id' | 'lock_version'>, body: string) =>
    api.put<NoteEntity>(`${mrPath(projectId, iid)}/notes/${note.id}`, { body: { body, lock_version: note.lock_version } }),
  remove: ({ projectId, iid }: NoteTarget, noteId: number) => api.delete(`${mrPath(projectId, iid)}/notes/${noteId}`),
  resolve: ({ projectId, iid }: NoteTarget, discussionId: string, resolved: boolean) =>
    api.put<DiscussionEntity>(`${mrPath(projectId, iid)}/discussions/${encodeURIComponent(discussionId)}`, { query: { resolved } }),
};

type Pages = InfiniteData<DiscussionPage, string>;

/** Replaces one note in the cached pages (an optimistic edit, or the server's answer). */
export function patchNote(client: QueryClient, target: NoteTarget, noteId: number, change: (note: NoteEntity) => NoteEntity): void {
  client.setQueryData<Pages>(notesKeys.discussions(target.projectId, target.iid), (data) =>
    data && {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        items: page.items.map((discussion) => (discussion.notes.some((note) => note.id === noteId) ? { ...discussion, notes: discussion.notes.map((note) => (note.id === noteId ? change(note) : note)) } : discussion)),
      })),
    },
  );
}

/** Replaces one thread in the cached pages (after resolve or reply). */
export function patchDiscussion(client: QueryClient, target: NoteTarget, discussionId: string, change: (discussion: DiscussionEntity) => DiscussionEntity | null): void {
  client.setQueryData<Pages>(notesKeys.discussions(target.projectId, target.iid), (data) =>
    data && {
      ...data,
      pages: data.pages.map((page) => ({ ...page, items: page.items.flatMap((discussion) => (discussion.id === discussionId ? (change(discussion) ?? []) : [discussion])) })),
    },
  );
}

/** A new thread or comment goes on the last page loaded (the list is oldest first). */
export function appendDiscussion(client: QueryClient, target: NoteTarget, discussion: DiscussionEntity): void {
  client.setQueryData<Pages>(notesKeys.discussions(target.projectId, target.iid), (data) => {
    if (!data || data.pages.length === 0) return data;
    const pages = [...data.pages];
    const last = pages[pages.length - 1]!;
    pages[pages.length - 1] = { ...last, items: [...last.items, discussion] };
    return { ...data, pages };
  });
}
