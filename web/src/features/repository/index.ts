// features/repository: what other areas and the app may use. Everything else in this folder is its own.
// Pages load lazily, each its own chunk: the router and routes import their loaders from here.
export { branchQuery, rawFileUrl } from './api';
export { PathBreadcrumb } from './PathBreadcrumb';
export { RefGate } from './RefGate';
export { RefSwitcher } from './RefSwitcher';
export { default as repositoryBrowserStyles } from './RepositoryBrowser.module.css';

export const loadProjectOverviewPage = () => import('./ProjectOverviewPage');
export const loadTreePage = () => import('./TreePage');
export const loadBlobPage = () => import('./BlobPage');
export const loadEditFilePage = () => import('./EditFilePage');
export const loadNewFilePage = () => import('./NewFilePage');
export const loadHighlighter = () => import('./highlighter');
