import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import { createBrowserRouter, Outlet } from 'react-router-dom';
import { PageLoading } from '../components/PageLoading';
import { RequireAuth, SessionGate, loadSignInPage } from '../features/session';
import { loadPersonalAccessTokensPage } from '../features/access-tokens';
import { loadAdminAbuseReportsPage, loadAdminUsersPage, loadNewUserPage } from '../features/admin';
import { loadDashboardGroupsPage, loadGroupRoute, loadNewGroupPage } from '../features/groups';
import { loadDashboardMergeRequestsPage } from '../features/merge-requests';
import { loadNamespaceRoute } from '../features/namespaces';
import { loadDashboardProjectsPage, loadNewProjectPage } from '../features/projects';
import { AppLayout } from './AppLayout';
import { RouteError } from './RouteError';
import { SIGNED_IN_PATHS, type SignedInPath } from './route-access';

/** Route-level code splitting: each page is its own chunk. */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  const Page: LazyExoticComponent<ComponentType> = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  return <Page />;
}

/** The pages only a signed-in user sees; keyed by route-access.ts's list so the two cannot drift apart. */
const signedInPages: Record<SignedInPath, ReactElement> = {
  '/': page(loadDashboardProjectsPage, 'DashboardProjectsPage'),
  '/dashboard/projects': page(loadDashboardProjectsPage, 'DashboardProjectsPage'),
  '/dashboard/groups': page(loadDashboardGroupsPage, 'DashboardGroupsPage'),
  '/dashboard/merge_requests': page(loadDashboardMergeRequestsPage, 'DashboardMergeRequestsPage'),
  '/projects/new': page(loadNewProjectPage, 'NewProjectPage'),
  '/groups/new': page(loadNewGroupPage, 'NewGroupPage'),
  '/-/user_settings/personal_access_tokens': page(loadPersonalAccessTokensPage, 'PersonalAccessTokensPage'),
  '/admin/users': page(loadAdminUsersPage, 'AdminUsersPage'),
  '/admin/users/new': page(loadNewUserPage, 'NewUserPage'),
  '/admin/abuse_reports': page(loadAdminAbuseReportsPage, 'AdminAbuseReportsPage'),
};

export const router = createBrowserRouter([
  {
    path: '/users/sign_in',
    errorElement: <RouteError />,
    element: (
      <Suspense fallback={<PageLoading />}>{page(loadSignInPage, 'SignInPage')}</Suspense>
    ),
  },
  {
    errorElement: <RouteError />,
    // Signed in or not: public projects and groups are readable by visitors (route-access.ts).
    element: (
      <SessionGate>
        <AppLayout />
      </SessionGate>
    ),
    children: [
      {
        element: (
          <RequireAuth>
            <Outlet />
          </RequireAuth>
        ),
        children: SIGNED_IN_PATHS.map((path) => (path === '/' ? { index: true, element: signedInPages[path] } : { path, element: signedInPages[path] })),
      },
      { path: 'groups/*', element: page(loadGroupRoute, 'GroupRoute') },
      // Everything else is a project or group full path, GitLab-style: /<path>[/-/<page>].
      { path: '*', element: page(loadNamespaceRoute, 'NamespaceRoute') },
    ],
  },
]);
