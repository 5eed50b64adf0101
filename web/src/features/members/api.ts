import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { ApiError } from '../../lib/api-error';
import type { Member } from '../../lib/gitlab-types';

/** GitLab: GET/POST /{projects|groups}/:id/members, PUT/DELETE …/members/:user_id. */
export const MEMBERS_PER_PAGE = 20;

export interface MemberSource {
  kind: 'projects' | 'groups';
  id: number;
}

export const memberKeys = {
  all: (source: MemberSource) => [source.kind, source.id, 'members'] as const,
  list: (source: MemberSource, params: { search: string; page: number }) => [...memberKeys.all(source), 'list', params] as const,
  self: (source: MemberSource, userId: number) => [...memberKeys.all(source), 'self', userId] as const,
};

const base = (source: MemberSource) => `/${source.kind}/${source.id}/members`;

export const memberListQuery = (source: MemberSource, params: { search: string; page: number }) =>
  queryOptions({
    queryKey: memberKeys.list(source, params),
    queryFn: ({ signal }) =>
      api.getPage<Member>(base(source), { signal, query: { query: params.search, page: params.page, per_page: MEMBERS_PER_PAGE } }),
    placeholderData: keepPreviousData,
  });

export const addMemberMutation = (source: MemberSource) =>
  mutationOptions({
    mutationKey: [...memberKeys.all(source), 'add'],
    mutationFn: (input: { username: string; access_level: number }) => api.post<Member>(base(source), { body: input }),
  });

export const updateMemberMutation = (source: MemberSource) =>
  mutationOptions({
    mutationKey: [...memberKeys.all(source), 'update'],
    mutationFn: ({ userId, accessLevel }: { userId: number; accessLevel: number }) =>
      api.put<Member>(`${base(source)}/${userId}`, { body: { access_level: accessLevel } }),
  });

export const removeMemberMutation = (source: MemberSource) =>
  mutationOptions({
    mutationKey: [...memberKeys.all(source), 'remove'],
    mutationFn: (userId: number) => api.delete(`${base(source)}/${userId}`),
  });

/**
 * The caller's own membership, inherited ones included (`/members/all/:user_id`),
 * falling back to direct membership; null when they are not a member.
 */
export const ownMembershipQuery = (source: MemberSource, userId: number) =>
  queryOptions({
    queryKey: memberKeys.self(source, userId),
    queryFn: async ({ signal }): Promise<Member | null> => {
      for (const path of [`${base(source)}/all/${userId}`, `${base(source)}/${userId}`]) {
        try {
          return await api.get<Member>(path, { signal });
        } catch (error) {
          if (!(error instanceof ApiError && error.isNotFound)) throw error;
        }
      }
      return null;
    },
  });

/** Users whose name or username contains `term` (GitLab's GET /users?search=), for the add form's suggestions. */
export const userSuggestionsQuery = (term: string) =>
  queryOptions({
    queryKey: ['users', 'suggestions', term] as const,
    queryFn: ({ signal }) => api.get<{ id: number; username: string; name: string }[]>('/users', { signal, query: { search: term, per_page: 10 } }),
    staleTime: 30_000,
  });
