import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { urls } from '../../lib/routes';
import { sessionQuery } from './api';

/** Renders its children only for a signed-in user; otherwise sends them to sign in and back. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const session = useQuery(sessionQuery());
  if (session.isPending) return <PageLoading label="Loading Tributary" />;
  if (session.isError) return <PageError error={session.error} onRetry={() => void session.refetch()} />;
  if (!session.data) {
    return <Navigate to={urls.signIn(location.pathname + location.search + location.hash)} replace />;
  }
  return children;
}
