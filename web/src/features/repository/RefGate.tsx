import type { ReactNode } from 'react';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { useRefAndPath } from './useRefAndPath';

/** Resolves `<ref>/<path>` from the URL, then renders the page for it. */
export function RefGate({ projectId, refAndPath, children }: { projectId: number; refAndPath: string; children: (ref: string, path: string) => ReactNode }) {
  const resolved = useRefAndPath(projectId, refAndPath);
  if (resolved.status === 'pending') return <PageLoading label="Loading branches and tags" />;
  if (resolved.status === 'error') return <PageError error={resolved.error} onRetry={resolved.retry} />;
  return children(resolved.ref, resolved.path);
}
