import { useQuery } from '@tanstack/react-query';
import type { User } from '../../lib/gitlab-types';
import { sessionQuery } from './api';

/** The signed-in user. Only for pages under RequireAuth, which renders nothing until the session is known. */
export function useCurrentUser(): User {
  const { data } = useQuery(sessionQuery());
  if (!data) throw new Error('useCurrentUser used outside RequireAuth');
  return data.user;
}

/**
 * The signed-in user, or null for a signed-out visitor of a public page. The app's layout
 * (SessionGate) renders nothing until the session is known, so null always means signed out.
 */
export function useOptionalUser(): User | null {
  const { data } = useQuery(sessionQuery());
  return data?.user ?? null;
}
