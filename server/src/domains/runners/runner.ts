/** A CI runner (GitLab's Ci::Runner), as the repository reads it: never its token, only the token's digest stays in the database. */
export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;
export type RunnerType = (typeof RUNNER_TYPES)[number];

export const RUNNER_ACCESS_LEVELS = ['not_protected', 'ref_protected'] as const;
export type RunnerAccessLevel = (typeof RUNNER_ACCESS_LEVELS)[number];

/** GitLab's prefix of the authentication token of a runner created in the UI or through POST /user/runners. */
export const RUNNER_TOKEN_PREFIX = 'glrt-';
/** GitLab's prefix of the authentication token of a runner registered with a legacy registration token. */
export const REGISTERED_RUNNER_TOKEN_PREFIX = 'glrtr-';
/** GitLab's prefix of registration tokens (instance, group and project). */
export const REGISTRATION_TOKEN_PREFIX = 'GR1348941';
/** GitLab's system_xid of a runner manager whose runner sends no `system_id`. */
export const LEGACY_SYSTEM_XID = '<legacy>';

export type RunnerRegistrationType = 'authenticated_user' | 'registration_token';

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
  registration_type: RunnerRegistrationType;
}

/** A machine using a runner's token (GitLab's Ci::RunnerManager, table ci_runner_machines), told apart by its system_id. */
export interface RunnerManager {
  id: number;
  runner_id: number;
  system_xid: string;
  contacted_at: Date | null;
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
  ip_address: string | null;
  executor_type: string | null;
  created_at: Date;
}

/** What a runner reports about itself (gitlab-runner's `info`). */
export interface RunnerInfo {
  version?: string;
  revision?: string;
  platform?: string;
  architecture?: string;
  /** the executor's name as gitlab-runner reports it (`shell`, `docker`, …), stored as GitLab's executor_type */
  executor?: string;
}
