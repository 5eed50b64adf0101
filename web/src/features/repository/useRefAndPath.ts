import { useQuery } from '@tanstack/react-query';
import { isAmbiguousRefPath, refSearchTerm, splitRefAndPath, type RefAndPath } from '../../lib/ref-path';
import { refNamesQuery } from '../branches';

export type ResolvedRef =
  | { status: 'pending' }
  | { status: 'error'; error: unknown; retry: () => void }
  | ({ status: 'resolved' } & RefAndPath);

/**
 * Splits a `<ref>/<path>` URL tail. Only when it has a `/` do branch and tag names
 * matter; then the names containing its first segment are fetched and the longest
 * matching one wins.
 */
export function useRefAndPath(projectId: number, refAndPath: string): ResolvedRef {
  const ambiguous = isAmbiguousRefPath(refAndPath);
  const names = useQuery({ ...refNamesQuery(projectId, refSearchTerm(refAndPath)), enabled: ambiguous });
  if (!ambiguous) return { status: 'resolved', ...splitRefAndPath(refAndPath, []) };
  if (names.isPending) return { status: 'pending' };
  if (names.isError) return { status: 'error', error: names.error, retry: () => void names.refetch() };
  return { status: 'resolved', ...splitRefAndPath(refAndPath, names.data) };
}
