// features/merge-trains: what other areas and the app may use. Everything else in this folder is its own.
// Pages load lazily, each its own chunk: the router and routes import their loaders from here.

export const loadMergeTrainsPage = () => import('./MergeTrainsPage');
