import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { SESSION_QUERY_KEY, api } from '../../app/client';
import { ApiError } from '../../lib/api-error';
import type { Session } from '../../lib/gitlab-types';

/** The web app's session calls (packages/contracts/src/session.ts): GET/POST/DELETE /-/session. */
export const sessionKeys = { current: SESSION_QUERY_KEY };

/** The signed-in session, or null when signed out (401). */
export const sessionQuery = () =>
  queryOptions({
    queryKey: sessionKeys.current,
    queryFn: async ({ signal }): Promise<Session | null> => {
      try {
        return await api.get<Session>('/-/session', { signal });
      } catch (error) {
        if (error instanceof ApiError && error.isUnauthorized) return null;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });

export interface SignInInput {
  login: string;
  password: string;
}

export const signInMutation = () =>
  mutationOptions({
    mutationKey: ['session', 'create'],
    mutationFn: (input: SignInInput) => api.post<Session>('/-/session', { body: input }),
  });

export const signOutMutation = () =>
  mutationOptions({
    mutationKey: ['session', 'destroy'],
    mutationFn: () => api.delete('/-/session'),
  });
