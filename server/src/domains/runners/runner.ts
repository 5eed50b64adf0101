/** A CI runner (GitLab's Ci::Runner), as the repository reads it: never its token, only the token's digest stays in the database. */
export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;
export type RunnerType = (typeof RUNNER_TYPES)[number];

export const RUNNER_ACCESS_LEVELS = ['not_protected', 'ref_protected'] as const;
export type RunnerAccessLevel = (typeof RUNNER_ACCESS_LEVELS)[number];

/** GitLab's prefix of the authentication token of a runner created in the UI or through POST /user/runners. */
export const RUNNER_TOKEN_PREFIX = 'glrt-';

export interface Runner {
  id: number;
  runner_type: RunnerType;
  /** the owning group of a group runner */
  group_id: number | null;
  /** the projects a project runner is assigned to, the owner (first assigned) first */
  project_ids: number[];
  description: string | null;
  paused: boolean;
  locked: boolean;
  run_untagged: boolean;
  tag_list: string[];
  access_level: RunnerAccessLevel;
  maximum_timeout: number | null;
  maintenance_note: string | null;
  token_short: string;
  token_expires_at: Date | null;
  created_by_id: number | null;
  created_at: Date;
  contacted_at: Date | null;
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
  ip_address: string | null;
  creation_state: 'started' | 'finished';
}

/** What a runner reports about itself (gitlab-runner's `info`). */
export interface RunnerInfo {
  version?: string;
  revision?: string;
  platform?: string;
  architecture?: string;
}
