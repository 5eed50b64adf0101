import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { encodeId } from '../../lib/api-client';
import type { NamespaceSummary, Project, Visibility } from '../../lib/gitlab-types';

/** GitLab: GET /projects, GET /projects/:id, POST /projects, GET /namespaces. */
export const PROJECTS_PER_PAGE = 20;

export interface ProjectListParams {
  search: string;
  page: number;
}

export const projectKeys = {
  all: ['projects'] as const,
  lists: () => [...projectKeys.all, 'list'] as const,
  list: (params: ProjectListParams) => [...projectKeys.lists(), params] as const,
  detail: (idOrPath: number | string) => [...projectKeys.all, 'detail', String(idOrPath)] as const,
  namespaces: () => ['namespaces', 'list'] as const,
};

/** The caller's projects, most recently active first. */
export const projectListQuery = (params: ProjectListParams) =>
  queryOptions({
    queryKey: projectKeys.list(params),
    queryFn: ({ signal }) =>
      api.getPage<Project>('/projects', {
        signal,
        query: {
          membership: true,
          search: params.search,
          order_by: 'last_activity_at',
          sort: 'desc',
          page: params.page,
          per_page: PROJECTS_PER_PAGE,
        },
      }),
    placeholderData: keepPreviousData,
  });

/** One project by numeric id or full path (`group/sub/project`). */
export const projectQuery = (idOrPath: number | string) =>
  queryOptions({
    queryKey: projectKeys.detail(idOrPath),
    queryFn: ({ signal }) => api.get<Project>(`/projects/${encodeId(idOrPath)}`, { signal }),
  });

/** The namespaces the caller may create projects in: their own and their groups. */
export const namespacesQuery = () =>
  queryOptions({
    queryKey: projectKeys.namespaces(),
    queryFn: ({ signal }) => api.get<NamespaceSummary[]>('/namespaces', { signal, query: { per_page: 100 } }),
  });

export interface CreateProjectInput {
  name: string;
  path: string;
  namespace_id: number;
  visibility: Visibility;
  description: string;
  initialize_with_readme: boolean;
}

export const createProjectMutation = () =>
  mutationOptions({
    mutationKey: [...projectKeys.all, 'create'],
    mutationFn: (input: CreateProjectInput) => api.post<Project>('/projects', { body: input }),
  });
