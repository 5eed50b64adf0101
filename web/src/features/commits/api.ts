import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { encodeId } from '../../lib/api-client';
import type { CommitDiff, CommitSummary } from '../../lib/gitlab-types';

/** GitLab: GET /projects/:id/repository/commits, …/commits/:sha, …/commits/:sha/diff. */
export const COMMITS_PER_PAGE = 40;
/** Diffs of larger commits are shown a page at a time. */
const DIFFS_PER_PAGE = 100;

export interface CommitListParams {
  ref: string;
  path: string;
  page: number;
}

export const commitKeys = {
  all: (projectId: number) => ['projects', projectId, 'commits'] as const,
  list: (projectId: number, params: CommitListParams) => [...commitKeys.all(projectId), 'list', params] as const,
  detail: (projectId: number, sha: string) => [...commitKeys.all(projectId), 'detail', sha] as const,
  diff: (projectId: number, sha: string) => [...commitKeys.all(projectId), 'diff', sha] as const,
};

export const commitListQuery = (projectId: number, params: CommitListParams) =>
  queryOptions({
    queryKey: commitKeys.list(projectId, params),
    queryFn: ({ signal }) =>
      api.getPage<CommitSummary>(`/projects/${projectId}/repository/commits`, {
        signal,
        query: { ref_name: params.ref, path: params.path, page: params.page, per_page: COMMITS_PER_PAGE },
      }),
    placeholderData: keepPreviousData,
  });

export const commitQuery = (projectId: number, sha: string) =>
  queryOptions({
    queryKey: commitKeys.detail(projectId, sha),
    queryFn: ({ signal }) => api.get<CommitSummary>(`/projects/${projectId}/repository/commits/${encodeId(sha)}`, { signal }),
    staleTime: Infinity,
  });

export const commitDiffQuery = (projectId: number, sha: string) =>
  queryOptions({
    queryKey: commitKeys.diff(projectId, sha),
    queryFn: ({ signal }) =>
      api.getPage<CommitDiff>(`/projects/${projectId}/repository/commits/${encodeId(sha)}/diff`, {
        signal,
        query: { per_page: DIFFS_PER_PAGE },
      }),
    staleTime: Infinity,
  });
