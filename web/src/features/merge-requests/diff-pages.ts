/**
 * How the Changes tab asks for a merge request's files (GET …/merge_requests/:iid/diffs,
 * offset pages): a small first page, so the first file is on screen soon, then pages that
 * double up to the largest one GitLab serves. Offset pages can only grow where the files
 * loaded so far are a whole number of the new size, so the sizes divide one another:
 * 25, 25, 50, then 100 at a time. The plan is pure; the query follows it.
 */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import type { CommitDiff } from '../../lib/gitlab-types';
import type { Paginated } from '../../lib/pagination';
import { mergeRequestKeys } from './api';

/** Page sizes, smallest first; each divides the next. 100 is GitLab's largest per_page. */
export const DIFF_PAGE_SIZES = [25, 50, 100] as const;

export interface DiffPageRequest {
  page: number;
  perPage: number;
}

/** The request for the files after the first `loaded` ones. */
export function nextDiffPage(loaded: number): DiffPageRequest {
  let perPage: number = DIFF_PAGE_SIZES[0];
  for (const size of DIFF_PAGE_SIZES) if (size <= Math.max(loaded, DIFF_PAGE_SIZES[0]) && loaded % size === 0) perPage = size;
  return { page: loaded / perPage + 1, perPage };
}

/** A page of files with the position of its first file in the whole diff. */
export interface DiffPage extends Paginated<CommitDiff> {
  offset: number;
}

/** Whether files remain after `page`: the server's X-Total when it sent one, else its X-Next-Page. */
export function diffPageHasMore(page: DiffPage): boolean {
  const loaded = page.offset + page.items.length;
  if (page.items.length === 0) return false;
  return page.pageInfo.total !== null ? loaded < page.pageInfo.total : page.pageInfo.nextPage !== null;
}

export const mergeRequestDiffPagesQuery = (projectId: number, iid: number, headSha: string) =>
  infiniteQueryOptions({
    queryKey: [...mergeRequestKeys.diffs(projectId, iid, headSha), 'progressive'] as const,
    queryFn: async ({ signal, pageParam }): Promise<DiffPage> => {
      const page = await api.getPage<CommitDiff>(`/projects/${projectId}/merge_requests/${iid}/diffs`, { signal, query: { page: pageParam.page, per_page: pageParam.perPage } });
      return { ...page, offset: (pageParam.page - 1) * pageParam.perPage };
    },
    initialPageParam: nextDiffPage(0),
    getNextPageParam: (last) => (diffPageHasMore(last) ? nextDiffPage(last.offset + last.items.length) : undefined),
    staleTime: Infinity,
  });
