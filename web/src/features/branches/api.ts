import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { encodeId } from '../../lib/api-client';
import type { Branch, Tag } from '../../lib/gitlab-types';

/** GitLab: GET/POST /projects/:id/repository/branches, DELETE …/branches/:branch, GET …/repository/tags. */
export const BRANCHES_PER_PAGE = 20;
/** The largest page GitLab serves; used where all candidates are wanted at once. */
const MAX_PER_PAGE = 100;

export interface BranchListParams {
  search: string;
  page: number;
}

export const branchKeys = {
  all: (projectId: number) => ['projects', projectId, 'branches'] as const,
  list: (projectId: number, params: BranchListParams) => [...branchKeys.all(projectId), 'list', params] as const,
  tags: (projectId: number, search: string) => ['projects', projectId, 'tags', search] as const,
  refNames: (projectId: number, term: string) => ['projects', projectId, 'ref-names', term] as const,
};

export const branchListQuery = (projectId: number, params: BranchListParams) =>
  queryOptions({
    queryKey: branchKeys.list(projectId, params),
    queryFn: ({ signal }) =>
      api.getPage<Branch>(`/projects/${projectId}/repository/branches`, {
        signal,
        query: { search: params.search, page: params.page, per_page: BRANCHES_PER_PAGE },
      }),
    placeholderData: keepPreviousData,
  });

export const tagListQuery = (projectId: number, search: string) =>
  queryOptions({
    queryKey: branchKeys.tags(projectId, search),
    queryFn: ({ signal }) =>
      api.getPage<Tag>(`/projects/${projectId}/repository/tags`, { signal, query: { search, per_page: MAX_PER_PAGE } }),
    placeholderData: keepPreviousData,
  });

/** Branch and tag names containing `term`, for splitting `<ref>/<path>` URLs (lib/ref-path.ts). */
export const refNamesQuery = (projectId: number, term: string) =>
  queryOptions({
    queryKey: branchKeys.refNames(projectId, term),
    queryFn: async ({ signal }) => {
      const query = { search: term, per_page: MAX_PER_PAGE };
      const [branches, tags] = await Promise.all([
        api.get<Branch[]>(`/projects/${projectId}/repository/branches`, { signal, query }),
        api.get<Tag[]>(`/projects/${projectId}/repository/tags`, { signal, query }),
      ]);
      return [...branches.map((b) => b.name), ...tags.map((t) => t.name)];
    },
    staleTime: 60_000,
  });

export const createBranchMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...branchKeys.all(projectId), 'create'],
    mutationFn: (input: { branch: string; ref: string }) =>
      api.post<Branch>(`/projects/${projectId}/repository/branches`, { body: input }),
  });

export const deleteBranchMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...branchKeys.all(projectId), 'delete'],
    mutationFn: (branch: string) => api.delete(`/projects/${projectId}/repository/branches/${encodeId(branch)}`),
  });
