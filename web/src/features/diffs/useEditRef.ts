import { useQuery } from '@tanstack/react-query';
import { branchQuery } from '../repository';

/**
 * The branch the single-file editor may commit to from a diff: `branch` when the reader
 * can push to it (`can_push` of GET …/repository/branches/:branch, which knows the
 * protected-branch rules), else null. Null while that is being asked.
 */
export function useEditRef(projectId: number, branch: string | null): string | null {
  const query = useQuery({ ...branchQuery(projectId, branch ?? ''), enabled: branch !== null, retry: false, staleTime: 60_000 });
  return branch !== null && query.data?.can_push === true ? branch : null;
}
