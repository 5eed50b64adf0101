import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { sessionQuery } from './api';

/**
 * Waits until the session is known (a user or null), so pages reading the user never see a
 * pending session. Unlike RequireAuth it lets signed-out visitors through: public projects
 * and groups are readable without an account, as on GitLab.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const session = useQuery(sessionQuery());
  if (session.isPending) return <PageLoading label="Loading Tributary" />;
  if (session.isError) return <PageError error={session.error} onRetry={() => void session.refetch()} />;
  return children;
}
