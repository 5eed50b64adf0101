import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../app/client';
import { apiErrorFromBody } from '../../lib/api-error';
import { appendDiscussion, notesKeys, type NoteTarget, type DiscussionEntity, type NoteEntity } from '../notes';
import { reviewKeys, type DraftNote } from '../review';
import type { OutdatedLine } from './outdated';
import type { DiffPosition } from './position';

/**
 * The Changes tab's calls for diff comments: a thread with a `position` (POST …/discussions,
 * doc/api/discussions.md) and a draft with the same position (POST …/draft_notes,
 * doc/api/draft_notes.md). The drafts' query key is shared with the review bar
 * (features/review): creating a draft here refreshes its count there.
 */
export type { DraftNote } from '../review';

/** A diff note as the server sends it: a note with its position. */
export type DiffNoteEntity = NoteEntity & { position?: DiffPosition; original_position?: DiffPosition; outdated?: boolean; outdated_line_change_path?: string | null };

const mrPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}`;

/** The caller's drafts: the review bar's query (features/review), invalidated after a new draft. */
export const draftNotesKey = reviewKeys.drafts;

export const diffNotesApi = {
  createThread: ({ projectId, iid }: NoteTarget, body: string, position: DiffPosition) =>
    api.post<DiscussionEntity>(`${mrPath(projectId, iid)}/discussions`, { body: { body, position } }),
  createDraft: ({ projectId, iid }: NoteTarget, note: string, position: DiffPosition) =>
    api.post<DraftNote>(`${mrPath(projectId, iid)}/draft_notes`, { body: { note, position } }),
};

/** After a new diff thread: shown at once in the diff and in Activity (same cached pages). */
export function addThread(client: QueryClient, target: NoteTarget, discussion: DiscussionEntity): void {
  appendDiscussion(client, target, discussion);
  void client.invalidateQueries({ queryKey: notesKeys.discussions(target.projectId, target.iid), refetchType: 'none' });
}

/**
 * The lines of the change that made a thread outdated: `GET {outdated_line_change_path}`, a web
 * path of the project (not under /api/v4, which the API client prefixes), read with the session
 * cookie. Cached per path: the answer of one note never changes.
 */
export const outdatedLinesQuery = (path: string) =>
  queryOptions({
    queryKey: ['outdated-line-change', path] as const,
    queryFn: async ({ signal }): Promise<OutdatedLine[]> => {
      const response = await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
      const body: unknown = await response.json().catch(() => undefined);
      if (!response.ok) throw apiErrorFromBody(response.status, body);
      return Array.isArray(body) ? (body as OutdatedLine[]) : [];
    },
    staleTime: Infinity,
  });
