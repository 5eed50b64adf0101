// features/projects: what other areas and the app may use. Everything else in this folder is its own.
// Pages load lazily, each its own chunk: the router and routes import their loaders from here.
export { namespacesQuery, projectKeys, projectQuery } from './api';
export { ProjectList } from './ProjectList';
export { default as projectListStyles } from './ProjectList.module.css';
export { ProjectRoute } from './ProjectRoute';

export const loadDashboardProjectsPage = () => import('./DashboardProjectsPage');
export const loadNewProjectPage = () => import('./NewProjectPage');
