import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import type { PersonalAccessToken } from '../../lib/gitlab-types';

/** GitLab: GET /personal_access_tokens, POST /user/personal_access_tokens, DELETE /personal_access_tokens/:id. */
export const tokenKeys = {
  all: ['personal-access-tokens'] as const,
  active: (userId: number) => [...tokenKeys.all, 'active', userId] as const,
};

/** The caller's active tokens (admins would otherwise see everyone's, hence `user_id`). */
export const activeTokensQuery = (userId: number) =>
  queryOptions({
    queryKey: tokenKeys.active(userId),
    queryFn: async ({ signal }) => {
      const tokens = await api.get<PersonalAccessToken[]>('/personal_access_tokens', {
        signal,
        query: { user_id: userId, state: 'active', per_page: 100 },
      });
      return tokens.filter((token) => token.active && !token.revoked && token.user_id === userId);
    },
  });

export interface CreateTokenInput {
  name: string;
  scopes: string[];
  expires_at: string;
}

export const createTokenMutation = () =>
  mutationOptions({
    mutationKey: [...tokenKeys.all, 'create'],
    mutationFn: (input: CreateTokenInput) => api.post<PersonalAccessToken>('/user/personal_access_tokens', { body: input }),
  });

export const revokeTokenMutation = () =>
  mutationOptions({
    mutationKey: [...tokenKeys.all, 'revoke'],
    mutationFn: (id: number) => api.delete(`/personal_access_tokens/${id}`),
  });
