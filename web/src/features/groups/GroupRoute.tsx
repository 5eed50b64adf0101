import { useQuery } from '@tanstack/react-query';
import { Navigate, useLocation } from 'react-router-dom';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { NotFoundPage } from '../../app/NotFoundPage';
import { ApiError } from '../../lib/api-error';
import { splitAtDash, urls } from '../../lib/routes';
import { GroupMembersPage } from '../members/GroupMembersPage';
import { groupQuery } from './api';

/** `/groups/<path>/-/group_members`; a bare `/groups/<path>` goes to the group page at `/<path>`, as on GitLab. */
export function GroupRoute() {
  const { pathname } = useLocation();
  const { fullPath, rest } = splitAtDash(pathname.replace(/^\/groups/, ''));
  const group = useQuery({ ...groupQuery(fullPath), enabled: rest !== null && fullPath !== '' });

  if (rest === null) return <Navigate to={urls.group(fullPath)} replace />;
  if (rest[0] !== 'group_members' || rest.length > 1) return <NotFoundPage />;
  if (group.isPending) return <PageLoading label="Loading group" />;
  if (group.isError) {
    return group.error instanceof ApiError && group.error.isNotFound ? (
      <NotFoundPage />
    ) : (
      <PageError error={group.error} onRetry={() => void group.refetch()} />
    );
  }
  return <GroupMembersPage group={group.data} />;
}
