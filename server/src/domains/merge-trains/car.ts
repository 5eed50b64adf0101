/**
 * A merge train car (GitLab's MergeTrains::Car, table merge_trains): one merge request queued
 * on the train of its target branch. Cars are ordered by id; a car's index is the number of
 * active cars ahead of it.
 *
 *   idle ──pipeline created──▶ fresh ──front car's pipeline passed──▶ merging ──▶ merged
 *     ▲                          │
 *     └──── stale ◀──────────────┘  (the commit it tested is no longer what it would merge)
 *
 * skip_merged records a merge immediately that skipped the train (it never ran on it). Cars
 * that leave the train (removed, ejected, pushed to) are deleted, as GitLab destroys them.
 */
export const CAR_STATUSES = ['idle', 'stale', 'fresh', 'merging', 'merged', 'skip_merged'] as const;
export type CarStatus = (typeof CAR_STATUSES)[number];

/** GitLab's scopes: active cars wait to be merged, complete ones have been (or are being). */
export const ACTIVE_STATUSES: readonly CarStatus[] = ['idle', 'stale', 'fresh'];
export const COMPLETE_STATUSES: readonly CarStatus[] = ['merging', 'merged', 'skip_merged'];
/** On the train: what the refresh walks, in order. */
export const ON_TRAIN_STATUSES: readonly CarStatus[] = ['idle', 'stale', 'fresh', 'merging'];

export interface Car {
  id: number;
  merge_request_id: number;
  user_id: number | null;
  pipeline_id: number | null;
  target_project_id: number;
  target_branch: string;
  status: CarStatus;
  squash: boolean;
  /** the merge options chosen when it was added (null: the merge request's or project's default) */
  merge_commit_message: string | null;
  squash_commit_message: string | null;
  should_remove_source_branch: boolean | null;
  /** the merge request head this car carries */
  source_sha: string | null;
  /** what its train commit was built on: the car ahead's train commit, or the target tip */
  base_sha: string | null;
  /** the commit its pipeline tests and, once it is the front car and passed, the target becomes */
  train_sha: string | null;
  merge_commit_sha: string | null;
  squash_commit_sha: string | null;
  merged_at: Date | null;
  /** seconds from joining the train to being merged */
  duration: number | null;
  created_at: Date;
  updated_at: Date;
}

/** The train's ref for a merge request: the speculative merge its car's pipeline runs on. */
export const trainRefName = (iid: number) => `refs/merge-requests/${iid}/train`;

/** A project runs merge trains only with merged results pipelines on (GitLab's merge_trains_enabled?). */
export function mergeTrainsEnabled(project: { merge_trains_enabled: boolean; merge_pipelines_enabled: boolean }): boolean {
  return project.merge_trains_enabled && project.merge_pipelines_enabled;
}

/**
 * Does the car still test what it would merge? Its pipeline ran on its head merged onto
 * `expectedBase` (the car ahead's train commit, or the target tip for the front car). When the
 * target moved under it, a car ahead left or restarted, or it never had a pipeline, it restarts.
 */
export function carIsCurrent(car: Pick<Car, 'status' | 'pipeline_id' | 'base_sha' | 'train_sha'>, expectedBase: string): boolean {
  return car.status === 'fresh' && car.pipeline_id !== null && car.train_sha !== null && car.base_sha === expectedBase;
}
