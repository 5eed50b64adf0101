// features/commits: what other areas and the app may use. Everything else in this folder is its own.
// Pages load lazily, each its own chunk: the router and routes import their loaders from here.
export { CommitRow } from './CommitRow';

export const loadCommitsPage = () => import('./CommitsPage');
export const loadCommitPage = () => import('./CommitPage');
