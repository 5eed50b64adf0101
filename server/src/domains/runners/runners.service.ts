import { AccessLevel } from '@tributary/contracts';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { runnerAbilities, type RunnerAction } from '../../auth/runner-permissions.js';
import { digest, generateOpaqueSecret, safeEqual } from '../../auth/secrets.js';
import type { Namespace } from '../namespaces/namespace.js';
import type { NamespacesRepository } from '../namespaces/namespaces.repository.js';
import type { Project } from '../projects/project.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { GroupsService } from '../namespaces/groups.service.js';
import type { ApplicationSettingsRepository } from '../application-settings/application-settings.repository.js';
import { canPick, isOrphaned, tokenExpiresAt, validateRunnerSettings, type JobToPick, type RunnerSettingsInput, type RunnerStatusFilter } from './runner-rules.js';
import { LEGACY_SYSTEM_XID, REGISTERED_RUNNER_TOKEN_PREFIX, RUNNER_TOKEN_PREFIX, RUNNER_TYPES, type Runner, type RunnerInfo, type RunnerManager, type RunnerType } from './runner.js';
import type { RunnerListFilter, RunnersRepository } from './runners.repository.js';

export interface CreateRunnerInput extends RunnerSettingsInput {
  runner_type?: string;
  group_id?: number;
  project_id?: number;
}

export interface UpdateRunnerInput extends RunnerSettingsInput {
  /** deprecated: the opposite of `paused` */
  active?: boolean;
}

export type RunnerListQuery = Omit<RunnerListFilter, 'scope'>;

/** A runner with the projects and group the caller may see of it (GitLab's RunnerDetails). */
export interface RunnerDetails {
  runner: Runner;
  projects: Project[];
  groups: Namespace[];
}

/** A new or rotated authentication token: shown once, never stored. */
export interface IssuedToken {
  runner: Runner;
  token: string;
}

const INSUFFICIENT_PERMISSIONS = '403 Forbidden - Insufficient permissions';
const UPDATE_FIELDS = ['description', 'active', 'paused', 'tag_list', 'run_untagged', 'locked', 'access_level', 'maximum_timeout', 'maintenance_note'] as const;

/** A new runner authentication token: `glrt-` for runners created by a user, `glrtr-` for runners registered with a registration token (GitLab's prefixes). */
export function newRunnerToken(registrationType: Runner['registration_type'] = 'authenticated_user'): { token: string; digest: string; short: string } {
  const secret = generateOpaqueSecret(20);
  const token = (registrationType === 'registration_token' ? REGISTERED_RUNNER_TOKEN_PREFIX : RUNNER_TOKEN_PREFIX) + secret;
  return { token, digest: digest(token), short: secret.slice(0, 8) };
}

/** What a runner sends about the machine it runs on with verify and job requests. */
export interface RunnerContact {
  /** gitlab-runner's `system_id`; none is GitLab's `<legacy>` manager */
  systemId?: string;
  info?: RunnerInfo;
  ipAddress?: string;
}

/** The manager a contact is recorded on: its `system_id` (at most 64 characters, as GitLab validates), or `<legacy>`. */
export function systemXidOf(systemId: string | undefined): string {
  return systemId ? systemId.slice(0, 64) : LEGACY_SYSTEM_XID;
}

/**
 * CI runners as GitLab has them (doc/api/runners.md, POST /user/runners, the runner-token calls
 * of lib/api/ci/runner.rb): created by a user for the instance, a group or a project, known to
 * the runner by a `glrt-` token whose digest alone is stored. Who may see and manage a runner is
 * runnerAbilities() (auth/runner-permissions.ts); a runner the caller may not see is a 404.
 */
export function createRunnersService(deps: {
  db: Pick<Database, 'transaction'>;
  runners: RunnersRepository;
  projects: Pick<ProjectsService, 'find'>;
  groups: Pick<GroupsService, 'find'>;
  projectRows: Pick<ProjectsRepository, 'findById'>;
  namespaces: Pick<NamespacesRepository, 'findById'>;
  authorizer: Authorizer;
  settings: Pick<ApplicationSettingsRepository, 'get'>;
  now?: () => Date;
}) {
  const { authorizer } = deps;
  const now = deps.now ?? (() => new Date());

  /** A token for this runner, expiring as the instance settings say for its type. */
  async function issueToken(runner: Pick<Runner, 'runner_type' | 'registration_type'>) {
    const issued = newRunnerToken(runner.registration_type);
    return { ...issued, expiresAt: tokenExpiresAt(runner.runner_type, await deps.settings.get(), now()) };
  }

  async function abilities(actor: Actor, runner: Runner): Promise<Set<RunnerAction>> {
    if (!actor.user) return new Set();
    let groupLevel = 0;
    const projectLevels: number[] = [];
    if (runner.group_id !== null) {
      const group = await deps.namespaces.findById(runner.group_id);
      if (group) groupLevel = await authorizer.accessLevel(actor, { group });
    }
    if (!actor.user.is_admin) {
      for (const projectId of runner.project_ids) {
        const project = await deps.projectRows.findById(projectId);
        projectLevels.push(project ? await authorizer.accessLevel(actor, { project }) : 0);
      }
    }
    return runnerAbilities({ userId: actor.user.id, isAdmin: actor.user.is_admin, runnerType: runner.runner_type, groupLevel, projectLevels });
  }

  /** The runner if the caller may read it, else 404 "Runner Not Found" (never a 403 for the unseen). */
  async function findVisible(actor: Actor, id: number): Promise<{ runner: Runner; can: Set<RunnerAction> }> {
    const runner = await deps.runners.findById(id);
    if (!runner) throw new NotFoundError('Runner');
    const can = await abilities(actor, runner);
    if (!can.has('read_runner')) throw new NotFoundError('Runner');
    return { runner, can };
  }

  async function details(actor: Actor, runner: Runner): Promise<RunnerDetails> {
    const projects: Project[] = [];
    for (const projectId of runner.project_ids) {
      const project = await deps.projectRows.findById(projectId);
      if (project && (await authorizer.canRead(actor, { project }))) projects.push(project);
    }
    const group = runner.group_id === null ? undefined : await deps.namespaces.findById(runner.group_id);
    return { runner, projects, groups: group ? [group] : [] };
  }

  /** The runner a presented token belongs to, compared in constant time; null for an unknown or expired token. */
  async function authenticate(token: string | undefined): Promise<Runner | null> {
    if (!token) return null;
    const presented = digest(token);
    const found = await deps.runners.findByTokenDigest(presented);
    if (!found || !safeEqual(found.token_digest, presented) || found.token_expired) return null;
    const { token_digest: _digest, token_expired: _expired, ...runner } = found;
    return runner;
  }

  async function authenticateOrForbid(token: string | undefined): Promise<Runner> {
    if (!token) throw ValidationError.missing('token');
    const runner = await authenticate(token);
    if (!runner) throw new ForbiddenError();
    return runner;
  }

  async function recordContact(runner: Runner, contact: RunnerContact): Promise<void> {
    await deps.runners.recordContact(runner.id, { systemXid: systemXidOf(contact.systemId), info: contact.info, ipAddress: contact.ipAddress });
  }

  async function reload(id: number): Promise<Runner> {
    const runner = await deps.runners.findById(id);
    if (!runner) throw new NotFoundError('Runner');
    return runner;
  }

  return {
    authenticate,
    /** May this runner run this job? The pure rule, for the job-request protocol. */
    canPick: (runner: Runner, job: JobToPick) => canPick(runner, job),

    /** POST /user/runners: GitLab's CreateRunnerService; instance runners by administrators, group runners by Owners, project runners by Maintainers. */
    async create(actor: Actor, input: CreateRunnerInput): Promise<IssuedToken> {
      if (!actor.user) throw new NotFoundError();
      if (!input.runner_type) throw ValidationError.missing('runner_type');
      if (!(RUNNER_TYPES as readonly string[]).includes(input.runner_type)) throw new ValidationError('400 (Bad request) "runner_type" does not have a valid value');
      const runnerType = input.runner_type as RunnerType;
      let groupId: number | null = null;
      let projectId: number | null = null;
      if (runnerType === 'instance_type') {
        if (!actor.user.is_admin) throw new ForbiddenError(INSUFFICIENT_PERMISSIONS);
      } else if (runnerType === 'group_type') {
        if (input.group_id === undefined) throw ValidationError.missing('group_id');
        const group = await deps.groups.find(actor, input.group_id);
        if (!(await authorizer.can(actor, 'admin_runners', { group }))) throw new ForbiddenError(INSUFFICIENT_PERMISSIONS);
        groupId = group.id;
      } else {
        if (input.project_id === undefined) throw ValidationError.missing('project_id');
        const project = await deps.projects.find(actor, input.project_id);
        if (!(await authorizer.can(actor, 'admin_runners', { project }))) throw new ForbiddenError(INSUFFICIENT_PERMISSIONS);
        projectId = project.id;
      }
      const settings = validateRunnerSettings(input);
      const issued = await issueToken({ runner_type: runnerType, registration_type: 'authenticated_user' });
      const id = await deps.db.transaction((tx) =>
        deps.runners.insert({ runnerType, groupId, projectId, settings, tokenDigest: issued.digest, tokenShort: issued.short, tokenExpiresAt: issued.expiresAt, createdById: actor.user!.id }, tx),
      );
      return { runner: await reload(id), token: issued.token };
    },

    /**
     * POST /runners/verify: the runner proves its token; its contact is recorded and its creation
     * finished. 403 for a bad token, 422 "Runner is orphaned" for a project runner without projects.
     */
    async verify(token: string | undefined, contact: RunnerContact): Promise<IssuedToken> {
      const runner = await authenticateOrForbid(token);
      if (isOrphaned(runner)) throw new UnprocessableError('Runner is orphaned');
      await recordContact(runner, contact);
      return { runner: await reload(runner.id), token: token! };
    },

    /** A job request's contact: the runner's and its manager's (GitLab's heartbeat). */
    recordContact,

    /** The manager that took a job: the one of the request's `system_id`. */
    linkJobToManager: (runner: Runner, systemId: string | undefined, jobId: number) => deps.runners.linkJobToManager(jobId, runner.id, systemXidOf(systemId)),

    /** A job's own call (state update, log chunk) counts as its runner's and manager's contact. */
    heartbeatForJob: (jobId: number) => deps.runners.heartbeatForJob(jobId),

    /** DELETE /runners/managers: the runner forgets one of its machines; GitLab's 404 "404 Runner manager not found Not Found" when it has none of that system_id. */
    async unregisterManager(token: string | undefined, systemId: string | undefined): Promise<void> {
      const runner = await authenticateOrForbid(token);
      if (!systemId) throw ValidationError.missing('system_id');
      if (!(await deps.runners.removeManager(runner.id, systemId))) throw new NotFoundError('Runner manager not found');
    },

    /** GET /runners/:id/managers: the machines using the runner's token, for whoever may read the runner. */
    async managers(actor: Actor, id: number): Promise<(RunnerManager & { job_execution_status: 'active' | 'idle' })[]> {
      const { runner } = await findVisible(actor, id);
      return deps.runners.managers(runner.id);
    },

    /** DELETE /runners: the runner unregisters itself. */
    async unregister(token: string | undefined): Promise<void> {
      const runner = await authenticateOrForbid(token);
      await deps.runners.remove(runner.id);
    },

    /** POST /runners/reset_authentication_token: the runner swaps its token for a new one. */
    async resetOwnToken(token: string | undefined): Promise<IssuedToken> {
      const runner = await authenticateOrForbid(token);
      const issued = await issueToken(runner);
      await deps.runners.replaceToken(runner.id, issued.digest, issued.short, issued.expiresAt);
      return { runner: await reload(runner.id), token: issued.token };
    },

    /** POST /runners/:id/reset_authentication_token: whoever may edit the runner rotates its token. */
    async resetToken(actor: Actor, id: number): Promise<IssuedToken> {
      const { runner, can } = await findVisible(actor, id);
      if (!can.has('update_runner')) throw new ForbiddenError('403 Forbidden - No access granted');
      const issued = await issueToken(runner);
      await deps.runners.replaceToken(runner.id, issued.digest, issued.short, issued.expiresAt);
      return { runner: await reload(runner.id), token: issued.token };
    },

    /** GET /runners: the runners the caller owns (project runners of projects they maintain, group runners of groups they own). */
    async listOwned(actor: Actor, query: RunnerListQuery) {
      if (!actor.user) throw new NotFoundError();
      return deps.runners.list({ ...query, scope: { kind: 'owned', userId: actor.user.id, maintainer: AccessLevel.Maintainer, owner: AccessLevel.Owner } });
    },

    /** GET /runners/all: every runner, for administrators. */
    async listAll(actor: Actor, query: RunnerListQuery) {
      if (!actor.user?.is_admin) throw new ForbiddenError();
      return deps.runners.list({ ...query, scope: { kind: 'all' } });
    },

    /** GET /projects/:id/runners: the project's own runners, its groups' runners and instance runners (Maintainers). */
    async listForProject(actor: Actor, projectIdOrPath: string, query: RunnerListQuery) {
      const project = await deps.projects.find(actor, projectIdOrPath);
      await authorizer.authorize(actor, 'admin_runners', { project });
      const groupIds = project.namespace_kind === 'group' ? project.namespace_traversal_ids : [];
      return deps.runners.list({ ...query, scope: { kind: 'project', projectId: project.id, groupIds } });
    },

    /** GET /groups/:id/runners: the group's and its ancestors' runners and instance runners (Maintainers). */
    async listForGroup(actor: Actor, groupIdOrPath: string, query: RunnerListQuery) {
      const group = await deps.groups.find(actor, groupIdOrPath);
      await authorizer.authorize(actor, 'read_runners', { group });
      return deps.runners.list({ ...query, scope: { kind: 'group', groupIds: group.traversal_ids } });
    },

    async show(actor: Actor, id: number): Promise<RunnerDetails> {
      const { runner } = await findVisible(actor, id);
      return details(actor, runner);
    },

    /** PUT /runners/:id. GitLab wants at least one setting, and `active` and `paused` not both. */
    async update(actor: Actor, id: number, input: UpdateRunnerInput): Promise<RunnerDetails> {
      const { runner, can } = await findVisible(actor, id);
      if (!can.has('update_runner')) throw new ForbiddenError('403 Forbidden - No access granted');
      if (UPDATE_FIELDS.every((field) => input[field] === undefined)) {
        throw new ValidationError(`400 (Bad request) ${UPDATE_FIELDS.join(', ')} are missing, at least one parameter must be provided`);
      }
      if (input.active !== undefined && input.paused !== undefined) throw new ValidationError('400 (Bad request) active, paused are mutually exclusive');
      const { active, ...rest } = input;
      const settings = validateRunnerSettings(active === undefined ? rest : { ...rest, paused: !active }, runner);
      await deps.db.transaction((tx) => deps.runners.update(runner.id, settings, tx));
      return details(actor, await reload(runner.id));
    },

    /** DELETE /runners/:id. A project runner of several projects is removed from each first (GitLab refuses). */
    async remove(actor: Actor, id: number): Promise<void> {
      const { runner, can } = await findVisible(actor, id);
      if (!actor.user!.is_admin && runner.project_ids.length > 1) throw new ForbiddenError('403 Forbidden - Runner associated with more than one project');
      if (!can.has('delete_runner')) throw new ForbiddenError('403 Forbidden - No access granted');
      await deps.db.transaction((tx) => deps.runners.remove(runner.id, tx));
    },

    /** POST /projects/:id/runners: enables another of the caller's project runners for this project. */
    async assignToProject(actor: Actor, projectIdOrPath: string, runnerId: number): Promise<Runner> {
      const project = await deps.projects.find(actor, projectIdOrPath);
      await authorizer.authorize(actor, 'admin_runners', { project });
      const runner = await deps.runners.findById(runnerId);
      if (!runner) throw new NotFoundError('Runner');
      const can = await abilities(actor, runner);
      if (runner.runner_type === 'group_type') throw new ForbiddenError('403 Forbidden - Runner is a group runner');
      if (runner.runner_type === 'instance_type') throw new ValidationError('Transitioning an instance runner to a project runner is not supported');
      if (!actor.user!.is_admin) {
        if (!can.has('read_runner')) throw new NotFoundError('Runner');
        if (runner.locked) throw new ForbiddenError('403 Forbidden - Runner is locked');
        if (!can.has('assign_runner')) throw new ForbiddenError('403 Forbidden - No access granted');
      }
      try {
        const added = await deps.db.transaction((tx) => deps.runners.assignProject(runner.id, project.id, tx));
        if (!added) throw new ValidationError('Runner has already been taken');
      } catch (error) {
        if (isUniqueViolation(error)) throw new ValidationError('Runner has already been taken');
        throw error;
      }
      return reload(runner.id);
    },

    /** DELETE /projects/:id/runners/:runner_id: disables a runner for a project that is not its only one. */
    async unassignFromProject(actor: Actor, projectIdOrPath: string, runnerId: number): Promise<void> {
      const project = await deps.projects.find(actor, projectIdOrPath);
      await authorizer.authorize(actor, 'admin_runners', { project });
      const runner = await deps.runners.findById(runnerId);
      if (!runner || !runner.project_ids.includes(project.id)) throw new NotFoundError('Runner');
      if (runner.project_ids.length === 1) throw new ForbiddenError('403 Forbidden - Only one project associated with the runner. Please remove the runner instead');
      await deps.db.transaction((tx) => deps.runners.unassignProject(runner.id, project.id, tx));
    },
  };
}

export type RunnersService = ReturnType<typeof createRunnersService>;
export type { RunnerStatusFilter };
