import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter } from 'react-router-dom';
import { PageLoading } from '../components/PageLoading';
import { RequireAuth } from '../features/session/RequireAuth';
import { AppLayout } from './AppLayout';
import { RouteError } from './RouteError';

/** Route-level code splitting: each page is its own chunk. */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  const Page: LazyExoticComponent<ComponentType> = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  return <Page />;
}

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
    element: (
      <RequireAuth>
        <AppLayout />
      </RequireAuth>
    ),
    children: [
      { index: true, element: page(() => import('../features/projects/DashboardProjectsPage'), 'DashboardProjectsPage') },
      { path: 'dashboard/projects', element: page(() => import('../features/projects/DashboardProjectsPage'), 'DashboardProjectsPage') },
      { path: 'dashboard/groups', element: page(() => import('../features/groups/DashboardGroupsPage'), 'DashboardGroupsPage') },
      {
        path: 'dashboard/merge_requests',
        element: page(() => import('../features/merge-requests/DashboardMergeRequestsPage'), 'DashboardMergeRequestsPage'),
      },
      { path: 'projects/new', element: page(() => import('../features/projects/NewProjectPage'), 'NewProjectPage') },
      { path: 'groups/new', element: page(() => import('../features/groups/NewGroupPage'), 'NewGroupPage') },
      { path: 'groups/*', element: page(() => import('../features/groups/GroupRoute'), 'GroupRoute') },
      {
        path: '-/user_settings/personal_access_tokens',
        element: page(() => import('../features/access-tokens/PersonalAccessTokensPage'), 'PersonalAccessTokensPage'),
      },
      { path: 'admin/users', element: page(() => import('../features/admin/AdminUsersPage'), 'AdminUsersPage') },
      { path: 'admin/users/new', element: page(() => import('../features/admin/NewUserPage'), 'NewUserPage') },
      // Everything else is a project or group full path, GitLab-style: /<path>[/-/<page>].
      { path: '*', element: page(() => import('../features/namespaces/NamespaceRoute'), 'NamespaceRoute') },
    ],
  },
]);
