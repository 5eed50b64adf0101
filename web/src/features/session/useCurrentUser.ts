import { useQuery } from '@tanstack/react-query';
import type { User } from '../../lib/gitlab-types';
import { sessionQuery } from './api';

/** The signed-in user. Only for components under RequireAuth, which renders nothing until the session is known. */
export function useCurrentUser(): User {
  const { data } = useQuery(sessionQuery());
  if (!data) throw new Error('useCurrentUser used outside RequireAuth');
  return data.user;
}
