// features/groups: what other areas and the app may use. Everything else in this folder is its own.
// Pages load lazily, each its own chunk: the router and routes import their loaders from here.
export { groupKeys, groupQuery, parentGroupOptionsQuery } from './api';
export { GroupBreadcrumbs } from './GroupBreadcrumbs';
export { GroupPage } from './GroupPage';

export const loadDashboardGroupsPage = () => import('./DashboardGroupsPage');
export const loadNewGroupPage = () => import('./NewGroupPage');
export const loadGroupRoute = () => import('./GroupRoute');
