import { useQuery } from '@tanstack/react-query';
import type { Group } from '../../lib/gitlab-types';
import { OWNER } from '../../lib/permissions';
import { useOptionalUser } from '../session';
import { groupAccessQuery } from './api';

/** The caller's level in the group (administrators act as Owners), or undefined while it loads. */
export function useGroupLevel(group: Group): number | undefined {
  const user = useOptionalUser();
  const access = useQuery(groupAccessQuery(group.id, user?.id ?? null));
  if (!user) return 0;
  if (user.is_admin) return OWNER;
  if (access.isError) return 0;
  return access.data;
}
