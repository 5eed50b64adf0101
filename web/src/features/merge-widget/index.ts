// features/merge-widget: what other areas and the app may use. Everything else in this folder is its own.
export { MergeWidget } from './MergeWidget';
export { MSG } from './messages';
export { MergeRequestDeployments } from './deployments/MergeRequestDeployments';
/** One GraphQL request with the session's CSRF token (the pipeline graph's delayed job countdown reads CiJob.scheduledAt with it). */
export { graphqlRequest } from './api';
/** GitLab's user callouts (dismissed hints): the pipeline graph's hover tip reads and records its own. */
export { calloutsQuery, dismissCalloutMutation } from './api';
