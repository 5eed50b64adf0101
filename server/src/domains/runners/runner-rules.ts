import { ValidationError } from '../../platform/errors.js';
import { RUNNER_ACCESS_LEVELS, type Runner, type RunnerAccessLevel } from './runner.js';

/** GitLab's Ci::Runner::ONLINE_CONTACT_TIMEOUT: a runner seen within it is online. */
export const ONLINE_CONTACT_TIMEOUT_MS = 2 * 3_600_000;
/** GitLab's Ci::Runner::STALE_TIMEOUT: no contact (or created and never contacted) for this long is stale. */
export const STALE_TIMEOUT_MS = 7 * 86_400_000;
/** GitLab's Ci::Runner::TAG_LIST_MAX_LENGTH. */
export const TAG_LIST_MAX_LENGTH = 50;

/** The statuses the `status` filter takes: GitLab's AVAILABLE_STATUSES and the deprecated `active` and `paused`. */
export const RUNNER_STATUSES = ['online', 'offline', 'never_contacted', 'stale', 'active', 'paused'] as const;
export type RunnerStatusFilter = (typeof RUNNER_STATUSES)[number];
export type RunnerStatus = 'online' | 'offline' | 'never_contacted' | 'stale' | 'paused';

export function isOnline(runner: Pick<Runner, 'contacted_at'>, now: Date): boolean {
  return runner.contacted_at !== null && runner.contacted_at.getTime() > now.getTime() - ONLINE_CONTACT_TIMEOUT_MS;
}

/** Stale: the later of creation and last contact is at least STALE_TIMEOUT ago (GitLab's Ci::Runner#stale?). */
export function isStale(runner: Pick<Runner, 'contacted_at' | 'created_at'>, now: Date): boolean {
  const last = Math.max(runner.created_at.getTime(), runner.contacted_at?.getTime() ?? 0);
  return last <= now.getTime() - STALE_TIMEOUT_MS;
}

/**
 * The `status` of GitLab's REST runner entity (Ci::Runner#deprecated_rest_status): stale first,
 * then never_contacted, then online or offline for an active runner and `paused` for a paused one.
 */
export function runnerStatus(runner: Pick<Runner, 'contacted_at' | 'created_at' | 'paused'>, now: Date): RunnerStatus {
  if (isStale(runner, now)) return 'stale';
  if (runner.contacted_at === null) return 'never_contacted';
  if (runner.paused) return 'paused';
  return isOnline(runner, now) ? 'online' : 'offline';
}

/**
 * A runner with no owner left: a project runner whose projects are all gone (a group runner goes
 * with its group). GitLab answers its token calls 422 "Runner is orphaned".
 */
export function isOrphaned(runner: Pick<Runner, 'runner_type' | 'project_ids'>): boolean {
  return runner.runner_type === 'project_type' && runner.project_ids.length === 0;
}

/** The job facts a runner is matched against. */
export interface JobToPick {
  projectId: number;
  /** the job's project's namespace and the groups above it (a personal namespace has none that count) */
  groupAncestry: readonly number[];
  tags: readonly string[];
  /** whether the job runs for a protected branch or tag */
  protectedRef: boolean;
}

/**
 * May this runner run this job? GitLab's rule (Ci::Runner#matches_build? with its ownership
 * scope): an active runner; an instance runner serves every project, a group runner the projects
 * under its group, a project runner the projects it is assigned to; a `ref_protected` runner only
 * jobs of protected refs; every job tag must be one of the runner's, and an untagged job needs
 * `run_untagged`.
 */
export function canPick(runner: Pick<Runner, 'paused' | 'runner_type' | 'group_id' | 'project_ids' | 'access_level' | 'run_untagged' | 'tag_list'>, job: JobToPick): boolean {
  if (runner.paused) return false;
  if (runner.runner_type === 'group_type' && (runner.group_id === null || !job.groupAncestry.includes(runner.group_id))) return false;
  if (runner.runner_type === 'project_type' && !runner.project_ids.includes(job.projectId)) return false;
  if (runner.access_level === 'ref_protected' && !job.protectedRef) return false;
  if (job.tags.length === 0) return runner.run_untagged;
  return job.tags.every((tag) => runner.tag_list.includes(tag));
}

/** A runner's settings as POST /user/runners and PUT /runners/:id take them (all optional on update). */
export interface RunnerSettingsInput {
  description?: string;
  paused?: boolean;
  locked?: boolean;
  run_untagged?: boolean;
  tag_list?: string[];
  access_level?: string;
  maximum_timeout?: number;
  maintenance_note?: string;
}

export interface RunnerSettings {
  description?: string;
  paused?: boolean;
  locked?: boolean;
  run_untagged?: boolean;
  tag_list?: string[];
  access_level?: RunnerAccessLevel;
  maximum_timeout?: number | null;
  maintenance_note?: string;
}

/**
 * GitLab's validations of a runner's settings, pure: tags trimmed and de-duplicated (at most 50),
 * a runner that takes no untagged jobs needs a tag, a known access level, a timeout of at least
 * ten minutes, description and note of at most 1024 characters. `current` is the runner being
 * updated, for the tags/run_untagged rule. Throws ValidationError with GitLab's messages.
 */
export function validateRunnerSettings(input: RunnerSettingsInput, current?: Pick<Runner, 'tag_list' | 'run_untagged'>): RunnerSettings {
  const settings: RunnerSettings = {};
  if (input.description !== undefined) settings.description = input.description;
  if (input.paused !== undefined) settings.paused = input.paused;
  if (input.locked !== undefined) settings.locked = input.locked;
  if (input.run_untagged !== undefined) settings.run_untagged = input.run_untagged;
  if (input.maintenance_note !== undefined) settings.maintenance_note = input.maintenance_note;
  if (input.tag_list !== undefined) settings.tag_list = [...new Set(input.tag_list.map((tag) => tag.trim()).filter(Boolean))];
  if (input.access_level !== undefined) {
    if (!(RUNNER_ACCESS_LEVELS as readonly string[]).includes(input.access_level)) throw new ValidationError('400 (Bad request) "access_level" does not have a valid value');
    settings.access_level = input.access_level as RunnerAccessLevel;
  }
  if (input.maximum_timeout !== undefined) {
    if (input.maximum_timeout < 600) throw ValidationError.field('maximum_timeout', 'needs to be at least 10 minutes');
    settings.maximum_timeout = input.maximum_timeout;
  }
  if ((settings.description?.length ?? 0) > 1024) throw ValidationError.field('description', 'is too long (maximum is 1024 characters)');
  if ((settings.maintenance_note?.length ?? 0) > 1024) throw ValidationError.field('maintenance_note', 'is too long (maximum is 1024 characters)');
  const tags = settings.tag_list ?? current?.tag_list ?? [];
  const runUntagged = settings.run_untagged ?? current?.run_untagged ?? true;
  if (tags.length === 0 && !runUntagged) throw ValidationError.field('tags_list', 'can not be empty when runner is not allowed to pick untagged jobs');
  if (tags.length > TAG_LIST_MAX_LENGTH) throw ValidationError.field('tags_list', `Too many tags specified. Please limit the number of tags to ${TAG_LIST_MAX_LENGTH}`);
  return settings;
}

/** GitLab's Ci::RunnerManager::EXECUTOR_NAME_TO_TYPES: the executor a runner reports, as the type stored; anything else is `unknown`. */
const EXECUTOR_TYPES: Record<string, string> = {
  unknown: 'unknown',
  custom: 'custom',
  shell: 'shell',
  docker: 'docker',
  'docker-windows': 'docker_windows',
  'docker-ssh': 'docker_ssh',
  ssh: 'ssh',
  parallels: 'parallels',
  virtualbox: 'virtualbox',
  'docker+machine': 'docker_machine',
  'docker-ssh+machine': 'docker_ssh_machine',
  kubernetes: 'kubernetes',
  'docker-autoscaler': 'docker_autoscaler',
  instance: 'instance',
};

export function executorType(executor: string): string {
  return Object.hasOwn(EXECUTOR_TYPES, executor) ? EXECUTOR_TYPES[executor]! : 'unknown';
}

/** A runner manager's status (GitLab's Ci::HasRunnerStatus): stale, never_contacted, then online or offline. */
export function runnerManagerStatus(manager: Pick<Runner, 'contacted_at' | 'created_at'>, now: Date): 'online' | 'offline' | 'never_contacted' | 'stale' {
  if (isStale(manager, now)) return 'stale';
  if (manager.contacted_at === null) return 'never_contacted';
  return isOnline(manager, now) ? 'online' : 'offline';
}

/** The token lifetimes of the instance settings, in seconds (null: tokens of that runner type do not expire). */
export interface RunnerTokenExpirationSettings {
  runner_token_expiration_interval: number | null;
  group_runner_token_expiration_interval: number | null;
  project_runner_token_expiration_interval: number | null;
}

/**
 * When a runner token issued now expires (GitLab's Ci::Runner#compute_token_expiration): the
 * instance setting of the runner's type — instance runners `runner_token_expiration_interval`,
 * group runners `group_runner_token_expiration_interval`, project runners
 * `project_runner_token_expiration_interval` — from now; null when the setting is empty.
 */
export function tokenExpiresAt(runnerType: Runner['runner_type'], settings: RunnerTokenExpirationSettings, now: Date): Date | null {
  const interval =
    runnerType === 'instance_type'
      ? settings.runner_token_expiration_interval
      : runnerType === 'group_type'
        ? settings.group_runner_token_expiration_interval
        : settings.project_runner_token_expiration_interval;
  return interval === null ? null : new Date(now.getTime() + interval * 1000);
}
