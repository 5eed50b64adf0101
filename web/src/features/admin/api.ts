import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import type { User } from '../../lib/gitlab-types';

/** GitLab (admin): GET /users, POST /users. */
export const USERS_PER_PAGE = 20;

export const adminUserKeys = {
  all: ['admin', 'users'] as const,
  list: (params: { search: string; page: number }) => [...adminUserKeys.all, 'list', params] as const,
};

export const userListQuery = (params: { search: string; page: number }) =>
  queryOptions({
    queryKey: adminUserKeys.list(params),
    queryFn: ({ signal }) =>
      api.getPage<User>('/users', {
        signal,
        query: { search: params.search, page: params.page, per_page: USERS_PER_PAGE, order_by: 'id', sort: 'asc' },
      }),
    placeholderData: keepPreviousData,
  });

export interface CreateUserInput {
  name: string;
  username: string;
  email: string;
  password: string;
  admin: boolean;
  skip_confirmation: boolean;
}

export const createUserMutation = () =>
  mutationOptions({
    mutationKey: [...adminUserKeys.all, 'create'],
    mutationFn: (input: CreateUserInput) => api.post<User>('/users', { body: input }),
  });
