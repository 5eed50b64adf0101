// features/merge-requests: what other areas and the app may use. Everything else in this folder is its own.
// Pages load lazily, each its own chunk: the router and routes import their loaders from here.
export { mergeRequestKeys, openMergeRequestCountQuery, updateMergeRequestMutation } from './api';
export { BranchSelect } from './BranchSelect';
export { useStateChange } from './MergeRequestHeader';
export { prefetchMergeRequestPage } from './prefetch';
export { RecentPushBanner } from './RecentPushBanner';
export { UsersSelect } from './UserSelect';

export const loadDashboardMergeRequestsPage = () => import('./DashboardMergeRequestsPage');
export const loadMergeRequestsPage = () => import('./MergeRequestsPage');
export const loadNewMergeRequestPage = () => import('./NewMergeRequestPage');
export const loadMergeRequestPage = () => import('./MergeRequestPage');
