import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../app/client';
import type { UserBasic } from '../../lib/gitlab-types';
import type { Paginated } from '../../lib/pagination';
import { loadEmojiData } from './emoji-data';

/**
 * Award emoji calls (doc/api/emoji_reactions.md): the merge request's own awards, and the awards
 * of all its notes in one list (`notes_award_emoji`, ours: GitLab's web app reads them inside each
 * note), so the Activity section makes no request per note.
 */
export interface AwardEmoji {
  id: number;
  name: string;
  user: UserBasic;
  created_at: string;
  updated_at: string;
  awardable_id: number;
  awardable_type: 'MergeRequest' | 'Note';
}

/** What is awarded: the merge request itself or one of its notes. */
export interface AwardTarget {
  projectId: number;
  iid: number;
  /** null: the merge request */
  noteId: number | null;
}

/** The lists are read whole, page after page: GitLab's largest page for the merge request's own… */
export const AWARDS_PER_PAGE = 100;
/** …and the notes' list's (server: MAX_NOTES_AWARDS_PER_PAGE). */
export const NOTES_AWARDS_PER_PAGE = 1000;

const mrPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}`;
const awardsPath = ({ projectId, iid, noteId }: AwardTarget) => `${mrPath(projectId, iid)}${noteId === null ? '' : `/notes/${noteId}`}/award_emoji`;

export const awardKeys = {
  mergeRequest: (projectId: number, iid: number) => ['merge-requests', 'detail', projectId, iid, 'award-emoji'] as const,
  notes: (projectId: number, iid: number) => ['merge-requests', 'detail', projectId, iid, 'notes-award-emoji'] as const,
  /** the cached list a target's awards live in */
  of: (target: AwardTarget) => (target.noteId === null ? awardKeys.mergeRequest(target.projectId, target.iid) : awardKeys.notes(target.projectId, target.iid)),
  emojiData: ['emoji-data'] as const,
};

async function allPages(path: string, perPage: number, signal: AbortSignal): Promise<AwardEmoji[]> {
  const items: AwardEmoji[] = [];
  for (let page: number | null = 1; page !== null; ) {
    const result: Paginated<AwardEmoji> = await api.getPage<AwardEmoji>(path, { query: { page, per_page: perPage }, signal });
    items.push(...result.items);
    page = result.pageInfo.nextPage;
  }
  return items;
}

export const mergeRequestAwardsQuery = (projectId: number, iid: number) =>
  queryOptions({ queryKey: awardKeys.mergeRequest(projectId, iid), queryFn: ({ signal }) => allPages(`${mrPath(projectId, iid)}/award_emoji`, AWARDS_PER_PAGE, signal) });

export const noteAwardsQuery = (projectId: number, iid: number) =>
  queryOptions({ queryKey: awardKeys.notes(projectId, iid), queryFn: ({ signal }) => allPages(`${mrPath(projectId, iid)}/notes_award_emoji`, NOTES_AWARDS_PER_PAGE, signal) });

/** The emoji list: a lazily loaded chunk, loaded once per page load. */
export const emojiDataQuery = () => queryOptions({ queryKey: awardKeys.emojiData, queryFn: loadEmojiData, staleTime: Infinity, gcTime: Infinity });

export const awardsApi = {
  award: (target: AwardTarget, name: string) => api.post<AwardEmoji>(awardsPath(target), { body: { name } }),
  remove: (target: AwardTarget, awardId: number) => api.delete(`${awardsPath(target)}/${awardId}`),
};

export function patchAwards(client: QueryClient, target: AwardTarget, change: (awards: AwardEmoji[]) => AwardEmoji[]): void {
  client.setQueryData<AwardEmoji[]>(awardKeys.of(target), (awards) => (awards ? change(awards) : awards));
}
