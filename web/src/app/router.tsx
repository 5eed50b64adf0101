import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import { createBrowserRouter, Outlet } from 'react-router-dom';
import { PageLoading } from '../components/PageLoading';
import { RequireAuth } from '../features/session/RequireAuth';
import { SessionGate } from '../features/session/SessionGate';
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
  '/': page(() => import('../features/projects/DashboardProjectsPage'), 'DashboardProjectsPage'),
  '/dashboard/projects': page(() => import('../features/projects/DashboardProjectsPage'), 'DashboardProjectsPage'),
  '/dashboard/groups': page(() => import('../features/groups/DashboardGroupsPage'), 'DashboardGroupsPage'),
  '/dashboard/merge_requests': page(() => import('../features/merge-requests/DashboardMergeRequestsPage'), 'DashboardMergeRequestsPage'),
  '/projects/new': page(() => import('../features/projects/NewProjectPage'), 'NewProjectPage'),
  '/groups/new': page(() => import('../features/groups/NewGroupPage'), 'NewGroupPage'),
  '/-/user_settings/personal_access_tokens': page(() => import('../features/access-tokens/PersonalAccessTokensPage'), 'PersonalAccessTokensPage'),
  '/admin/users': page(() => import('../features/admin/AdminUsersPage'), 'AdminUsersPage'),
  '/admin/users/new': page(() => import('../features/admin/NewUserPage'), 'NewUserPage'),
  '/admin/abuse_reports': page(() => import('../features/admin/AdminAbuseReportsPage'), 'AdminAbuseReportsPage'),
};

export const router = createBrowserRouter([
  {
    path: '/users/sign_in',
    errorElement: <RouteError />,
    element: (
      <Suspense fallback={<PageLoading />}>{page(() => import('../features/session/SignInPage'), 'SignInPage')}</Suspense>
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
      { path: 'groups/*', element: page(() => import('../features/groups/GroupRoute'), 'GroupRoute') },
      // Everything else is a project or group full path, GitLab-style: /<path>[/-/<page>].
      { path: '*', element: page(() => import('../features/namespaces/NamespaceRoute'), 'NamespaceRoute') },
    ],
  },
]);
