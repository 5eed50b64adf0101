import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { NotFoundPage } from '../../app/NotFoundPage';
import { ApiError } from '../../lib/api-error';
import { splitAtDash, urls } from '../../lib/routes';
import { GroupMembersPage } from '../members/GroupMembersPage';
import { groupQuery } from './api';

const GroupSettingsPage = lazy(() => import('../settings/GroupSettingsPage').then((m) => ({ default: m.GroupSettingsPage })));
const GroupLabelsPage = lazy(() => import('../labels/GroupLabelsPage').then((m) => ({ default: m.GroupLabelsPage })));
const GroupMilestonesPage = lazy(() => import('../labels/GroupMilestonesPage').then((m) => ({ default: m.GroupMilestonesPage })));

/** `/groups/<path>/-/group_members`, `/-/labels`, `/-/milestones`, `/-/edit` and `/-/settings/ci_cd`; a bare `/groups/<path>` goes to the group page at `/<path>`, as on GitLab. */
export function GroupRoute() {
  const { pathname } = useLocation();
  const { fullPath, rest } = splitAtDash(pathname.replace(/^\/groups/, ''));
  const group = useQuery({ ...groupQuery(fullPath), enabled: rest !== null && fullPath !== '' });

  if (rest === null) return <Navigate to={urls.group(fullPath)} replace />;
  const page = rest.length === 1 ? rest[0] : rest.join('/') === 'settings/ci_cd' ? 'ci_cd' : undefined;
  if (page !== 'group_members' && page !== 'edit' && page !== 'ci_cd' && page !== 'labels' && page !== 'milestones') return <NotFoundPage />;
  if (group.isPending) return <PageLoading label="Loading group" />;
  if (group.isError) {
    return group.error instanceof ApiError && group.error.isNotFound ? (
      <NotFoundPage />
    ) : (
      <PageError error={group.error} onRetry={() => void group.refetch()} />
    );
  }
  if (page === 'edit' || page === 'ci_cd' || page === 'labels' || page === 'milestones') {
    return (
      <Suspense fallback={<PageLoading />}>
        {page === 'edit' || page === 'ci_cd' ? (
          <GroupSettingsPage group={group.data} section={page === 'edit' ? 'general' : 'ci_cd'} />
        ) : page === 'labels' ? (
          <GroupLabelsPage group={group.data} />
        ) : (
          <GroupMilestonesPage group={group.data} />
        )}
      </Suspense>
    );
  }
  return <GroupMembersPage group={group.data} />;
}
