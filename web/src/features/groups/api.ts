import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { encodeId } from '../../lib/api-client';
import type { Group, Project, Visibility } from '../../lib/gitlab-types';
import { MAINTAINER } from '../../lib/permissions';
import { AccessLevel } from '@tributary/contracts/access-levels';

/** GitLab: GET/POST /groups, GET /groups/:id, /groups/:id/projects, /groups/:id/subgroups. */
export const GROUPS_PER_PAGE = 20;

export interface GroupListParams {
  search: string;
  page: number;
}

export const groupKeys = {
  all: ['groups'] as const,
  lists: () => [...groupKeys.all, 'list'] as const,
  list: (params: GroupListParams) => [...groupKeys.lists(), params] as const,
  parentOptions: () => [...groupKeys.all, 'parent-options'] as const,
  detail: (idOrPath: number | string) => [...groupKeys.all, 'detail', String(idOrPath)] as const,
  projects: (groupId: number, page: number) => [...groupKeys.all, groupId, 'projects', page] as const,
  subgroups: (groupId: number, page: number) => [...groupKeys.all, groupId, 'subgroups', page] as const,
};

/** Groups the caller is a member of (directly or through a parent). */
export const groupListQuery = (params: GroupListParams) =>
  queryOptions({
    queryKey: groupKeys.list(params),
    queryFn: ({ signal }) =>
      api.getPage<Group>('/groups', {
        signal,
        query: { min_access_level: AccessLevel.Guest, search: params.search, page: params.page, per_page: GROUPS_PER_PAGE, order_by: 'name' },
      }),
    placeholderData: keepPreviousData,
  });

/** Groups the caller may add subgroups to (GitLab's default: maintainers and owners). */
export const parentGroupOptionsQuery = () =>
  queryOptions({
    queryKey: groupKeys.parentOptions(),
    queryFn: ({ signal }) =>
      api.get<Group[]>('/groups', { signal, query: { min_access_level: MAINTAINER, per_page: 100, order_by: 'name' } }),
  });

export const groupQuery = (idOrPath: number | string) =>
  queryOptions({
    queryKey: groupKeys.detail(idOrPath),
    queryFn: ({ signal }) => api.get<Group>(`/groups/${encodeId(idOrPath)}`, { signal, query: { with_projects: false } }),
  });

export const groupProjectsQuery = (groupId: number, page: number) =>
  queryOptions({
    queryKey: groupKeys.projects(groupId, page),
    queryFn: ({ signal }) =>
      api.getPage<Project>(`/groups/${groupId}/projects`, {
        signal,
        query: { page, per_page: GROUPS_PER_PAGE, order_by: 'last_activity_at' },
      }),
    placeholderData: keepPreviousData,
  });

export const subgroupsQuery = (groupId: number, page: number) =>
  queryOptions({
    queryKey: groupKeys.subgroups(groupId, page),
    queryFn: ({ signal }) =>
      api.getPage<Group>(`/groups/${groupId}/subgroups`, { signal, query: { page, per_page: GROUPS_PER_PAGE, order_by: 'name' } }),
    placeholderData: keepPreviousData,
  });

export interface CreateGroupInput {
  name: string;
  path: string;
  parent_id?: number;
  visibility: Visibility;
  description?: string;
}

export const createGroupMutation = () =>
  mutationOptions({
    mutationKey: [...groupKeys.all, 'create'],
    mutationFn: (input: CreateGroupInput) => api.post<Group>('/groups', { body: input }),
  });
