import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { NotFoundPage } from '../../app/NotFoundPage';
import { ApiError } from '../../lib/api-error';
import { splitAtDash, urls } from '../../lib/routes';
import { GroupMembersPage } from '../members';
import { loadGroupSettingsPage } from '../settings';
import { loadGroupLabelsPage, loadGroupMilestonesPage } from '../labels';
import { groupQuery } from './api';

const GroupSettingsPage = lazy(() => loadGroupSettingsPage().then((m) => ({ default: m.GroupSettingsPage })));
const GroupLabelsPage = lazy(() => loadGroupLabelsPage().then((m) => ({ default: m.GroupLabelsPage })));
const GroupMilestonesPage = lazy(() => loadGroupMilestonesPage().then((m) => ({ default: m.GroupMilestonesPage })));

/** `/groups/<path>/-/group_members`, `/-/labels`, `/-/milestones`, `/-/edit` and `/-/settings/ci_cd`; a bare `/groups/<path>` goes to the group page at `/<path>`, as on GitLab. */
export function GroupRoute() {
  const { pathname } = useLocation();
  const { fullPath, rest } = splitAtDash(pathname.replace(/^\/groups/, ''));
  const group = useQuery({ ...groupQuery(fullPath), enabled: rest !== null && fullPath !== '' });

  const page = rest === null ? undefined : rest.length === 1 ? rest[0] : rest.join('/') === 'settings/ci_cd' ? 'ci_cd' : undefined;
  // The members page is named here; the others name themselves ('Page not found' too).
  useDocumentTitle(page === 'group_members' && group.data ? ['Members', group.data.full_name] : null);
  if (rest === null) return <Navigate to={urls.group(fullPath)} replace />;
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
