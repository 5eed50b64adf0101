/**
 * GitLab's composite status (Gitlab::Ci::Status::Composite) lives in the shared contracts: the
 * web app applies the same rule to the job groups of the pipeline graph.
 */
export { compositeStatus, type Composite, type StatusOf } from '@tributary/contracts';
