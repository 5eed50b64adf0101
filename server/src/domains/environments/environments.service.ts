/**
 * Environments and deployments as the REST API serves them (GitLab's doc/api/environments.md
 * and deployments.md): every call finds the project (404 when the caller may not see it) and
 * asks the one permission function — read_deployment to read, update_deployment to create,
 * update, stop and delete — and a deployment written from outside CI also needs GitLab's
 * `can_update_branch?` on its ref. Stopping runs the last deployment's `on_stop` job when
 * there is one (the environment is `stopping` until that job succeeds), as GitLab's
 * Environments::StopService; the auto stop queue job does the same when `auto_stop_at` passes.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { ProjectAction } from '../../auth/permissions.js';
import { resolveCommit } from '../../git/refs.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { PipelineEngine } from '../pipelines/pipeline-engine.service.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { usersByIds } from '../users/users.repository.js';
import { guessTier, validEnvironmentName, type DeploymentStatus, type Tier } from './environment-rules.js';
import type { DeploymentRow, EnvironmentRow } from './environment.js';
import type { DeploymentListFilter, EnvironmentListFilter, EnvironmentsRepository } from './environments.repository.js';

export const ENVIRONMENT_MESSAGES = {
  taken: 'has already been taken',
  invalidName: "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'",
  staleStopped: 'Successfully requested stop for all stale environments',
  ciDeployment: '403 Forbidden - Deployments created using GitLab CI can not be updated using the API',
  refMissing: 'The branch or tag does not exist',
} as const;

export function createEnvironmentsService(deps: {
  db: Database;
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize'>;
  environments: EnvironmentsRepository;
  pipelines: Pick<PipelinesService, 'mayUpdateRef' | 'describeJobs'>;
  pipelinesRepository: Pick<PipelinesRepository, 'findJob' | 'latestJobs'>;
  engine: Pick<PipelineEngine, 'playJob'>;
  repoPath: (projectId: number) => string;
  now?: () => Date;
}) {
  const repo = deps.environments;
  const now = deps.now ?? (() => new Date());

  async function open(actor: Actor, idOrPath: string | number, action: ProjectAction): Promise<Project> {
    const project = await deps.projects.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, 'read_deployment', { project });
    if (action !== 'read_deployment') await deps.authorizer.authorize(actor, action, { project });
    return project;
  }

  async function environmentFor(project: Project, id: number): Promise<EnvironmentRow> {
    const environment = await repo.find(project.id, id);
    if (!environment) throw new NotFoundError('Environment');
    return environment;
  }

  /** What deployment entities show beside the rows: users, environments and their jobs. */
  async function deploymentFacts(actor: Actor, project: Project, deployments: readonly DeploymentRow[]) {
    const users = await usersByIds(deps.db, deployments.map((d) => d.user_id));
    const environments = new Map<number, EnvironmentRow>();
    for (const id of new Set(deployments.map((d) => Number(d.environment_id)))) {
      const environment = await repo.findById(id);
      if (environment) environments.set(id, environment);
    }
    const jobs = await deps.pipelines.describeJobs(actor, project, deployments.flatMap((d) => (d.job_id === null ? [] : [Number(d.job_id)])));
    return { users, environments, ...jobs };
  }

  async function environmentFacts(actor: Actor, project: Project, environments: readonly EnvironmentRow[]) {
    const last = await repo.lastDeployments(environments.map((e) => e.id));
    return { last, deployments: await deploymentFacts(actor, project, [...last.values()]) };
  }

  /**
   * Stops an available environment: its last deployment's `on_stop` job is played (the
   * environment is stopping until it succeeds); without one, or when forced, it is stopped.
   * A caller (none for the auto stop) must be allowed to play that job: GitLab's
   * stop_environment is play_job on the stop job, which needs its ref's branch rule.
   */
  async function stop(environment: EnvironmentRow, by: { actor: Actor; project: Project } | null, force: boolean): Promise<EnvironmentRow> {
    if (!force && environment.state === 'available') {
      const deployment = await repo.latestDeployment(environment.id);
      const deployJob = deployment?.on_stop && deployment.job_id !== null ? await deps.pipelinesRepository.findJob(Number(deployment.job_id)) : null;
      const stopJob = deployJob ? (await deps.pipelinesRepository.latestJobs(deployJob.pipeline_id)).find((job) => job.name === deployment!.on_stop) : undefined;
      if (stopJob && ['manual', 'success', 'failed', 'canceled', 'skipped'].includes(stopJob.status)) {
        if (by && !(await deps.pipelines.mayUpdateRef(by.actor, by.project, deployment!.ref, deployment!.tag))) throw new ForbiddenError();
        // GitLab: the stopping state first, then the stop job; its success stops the environment.
        const stopping = (await repo.casState(environment.id, ['available'], 'stopping')) ?? environment;
        try {
          await deps.engine.playJob(stopJob.id, by?.actor.user?.id ?? null);
        } catch {
          return (await repo.casState(environment.id, ['stopping'], 'stopped')) ?? stopping;
        }
        return (await repo.findById(environment.id)) ?? stopping;
      }
    }
    return (await repo.casState(environment.id, ['available', 'stopping'], 'stopped')) ?? environment;
  }

  return {
    stop,

    async list(actor: Actor, idOrPath: string | number, filter: Omit<EnvironmentListFilter, 'projectId'>) {
      const project = await open(actor, idOrPath, 'read_deployment');
      const result = await repo.list({ ...filter, projectId: project.id });
      return { project, ...result, facts: await environmentFacts(actor, project, result.environments) };
    },

    async get(actor: Actor, idOrPath: string | number, id: number) {
      const project = await open(actor, idOrPath, 'read_deployment');
      const environment = await environmentFor(project, id);
      return { project, environment, facts: await environmentFacts(actor, project, [environment]) };
    },

    async create(actor: Actor, idOrPath: string | number, input: { name: string; externalUrl?: string | null; tier?: Tier }) {
      const project = await open(actor, idOrPath, 'update_deployment');
      if (!validEnvironmentName(input.name)) throw ValidationError.field('name', ENVIRONMENT_MESSAGES.invalidName);
      if (await repo.findByName(project.id, input.name)) throw new ValidationError({ name: [ENVIRONMENT_MESSAGES.taken], slug: [ENVIRONMENT_MESSAGES.taken] });
      let environment: EnvironmentRow;
      try {
        environment = await repo.findOrCreate(project.id, input.name, { externalUrl: input.externalUrl ?? null, tier: input.tier ?? guessTier(input.name) });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ValidationError({ slug: [ENVIRONMENT_MESSAGES.taken] });
        throw error;
      }
      return { project, environment, facts: await environmentFacts(actor, project, [environment]) };
    },

    async update(actor: Actor, idOrPath: string | number, id: number, input: { externalUrl?: string | null; tier?: Tier }) {
      const project = await open(actor, idOrPath, 'update_deployment');
      const environment = await environmentFor(project, id);
      const changes: Parameters<EnvironmentsRepository['update']>[1] = {};
      if (input.externalUrl !== undefined) changes.external_url = input.externalUrl;
      if (input.tier !== undefined) changes.tier = input.tier;
      const updated = Object.keys(changes).length > 0 ? await repo.update(environment.id, changes) : environment;
      return { project, environment: updated, facts: await environmentFacts(actor, project, [updated]) };
    },

    /** GitLab deletes only stopped environments (403 otherwise). */
    async remove(actor: Actor, idOrPath: string | number, id: number): Promise<void> {
      const project = await open(actor, idOrPath, 'update_deployment');
      const environment = await environmentFor(project, id);
      if (environment.state !== 'stopped') throw new ForbiddenError();
      await repo.remove(environment.id);
    },

    async stopOne(actor: Actor, idOrPath: string | number, id: number, force: boolean) {
      const project = await open(actor, idOrPath, 'update_deployment');
      const environment = await environmentFor(project, id);
      const stopped = await stop(environment, { actor, project }, force);
      return { project, environment: stopped, facts: await environmentFacts(actor, project, [stopped]) };
    },

    /** Stops the environments whose last deployment is older than `before` (GitLab's stop_stale). */
    async stopStale(actor: Actor, idOrPath: string | number, before: Date): Promise<void> {
      const project = await open(actor, idOrPath, 'update_deployment');
      // GitLab's stop_stale skips the environments the caller may not stop.
      for (const environment of await repo.stale(project.id, before)) {
        try {
          await stop(environment, { actor, project }, false);
        } catch (error) {
          if (!(error instanceof ForbiddenError)) throw error;
        }
      }
    },

    /** Deletes stopped review apps (environments in a folder) older than `before`; a dry run only lists them. */
    async removeReviewApps(actor: Actor, idOrPath: string | number, input: { before: Date; limit: number; dryRun: boolean }) {
      const project = await open(actor, idOrPath, 'update_deployment');
      const environments = await repo.stoppedReviewApps(project.id, input.before, input.limit);
      if (!input.dryRun) for (const environment of environments) await repo.remove(environment.id);
      return { project, environments };
    },

    /** The auto stop queue job: the environment, if still due, stops (running its on_stop job). */
    async autoStop(environmentId: number): Promise<void> {
      const environment = await repo.findById(environmentId);
      if (!environment || environment.state !== 'available' || !environment.auto_stop_at) return;
      if (new Date(environment.auto_stop_at).getTime() > now().getTime()) return;
      await stop(environment, null, false);
    },

    async deployments(actor: Actor, idOrPath: string | number, filter: Omit<DeploymentListFilter, 'projectId'>) {
      const project = await open(actor, idOrPath, 'read_deployment');
      const result = await repo.listDeployments({ ...filter, projectId: project.id });
      return { project, ...result, facts: await deploymentFacts(actor, project, result.deployments) };
    },

    async deployment(actor: Actor, idOrPath: string | number, id: number) {
      const project = await open(actor, idOrPath, 'read_deployment');
      const deployment = await repo.findDeployment(project.id, id);
      if (!deployment) throw new NotFoundError('Deployment');
      return { project, deployment, facts: await deploymentFacts(actor, project, [deployment]) };
    },

    /** A deployment made outside CI (no job): the environment is created when missing. */
    async createDeployment(actor: Actor & { user: { id: number } }, idOrPath: string | number, input: { environment: string; sha: string; ref: string; tag: boolean; status: DeploymentStatus }) {
      const project = await open(actor, idOrPath, 'update_deployment');
      if (!validEnvironmentName(input.environment)) throw ValidationError.field('environment', ENVIRONMENT_MESSAGES.invalidName);
      // GitLab's check: the ref names a commit (a branch, a tag or a SHA).
      const exists = !input.ref.startsWith('-') && (await resolveCommit(deps.repoPath(project.id), input.ref)) !== null;
      if (!exists) throw ValidationError.field('ref', ENVIRONMENT_MESSAGES.refMissing);
      if (!(await deps.pipelines.mayUpdateRef(actor, project, input.ref, input.tag))) throw new ForbiddenError();
      const deployment = await deps.db.transaction(async (tx) => {
        const environment = await repo.findOrCreate(project.id, input.environment, {}, tx);
        const row = await repo.insertDeployment({ projectId: project.id, environmentId: environment.id, jobId: null, ref: input.ref, tag: input.tag, sha: input.sha, userId: actor.user.id, status: input.status, onStop: null }, tx);
        if (input.status === 'running' || input.status === 'success') await repo.casState(environment.id, ['stopped', 'stopping'], 'available', tx);
        return row;
      });
      return { project, deployment, facts: await deploymentFacts(actor, project, [deployment]) };
    },

    async updateDeployment(actor: Actor, idOrPath: string | number, id: number, status: DeploymentStatus) {
      const project = await open(actor, idOrPath, 'update_deployment');
      const deployment = await repo.findDeployment(project.id, id);
      if (!deployment) throw new NotFoundError('Deployment');
      if (deployment.job_id !== null) throw new ForbiddenError(ENVIRONMENT_MESSAGES.ciDeployment);
      if (!(await deps.pipelines.mayUpdateRef(actor, project, deployment.ref, deployment.tag))) throw new ForbiddenError();
      const updated = deployment.status === status ? deployment : await repo.setDeploymentStatus(deployment.id, status);
      if (status === 'running' || status === 'success') await repo.casState(deployment.environment_id, ['stopped', 'stopping'], 'available');
      return { project, deployment: updated, facts: await deploymentFacts(actor, project, [updated]) };
    },
  };
}

export type EnvironmentsService = ReturnType<typeof createEnvironmentsService>;
export type EnvironmentFacts = Awaited<ReturnType<EnvironmentsService['get']>>['facts'];
export type DeploymentFacts = Awaited<ReturnType<EnvironmentsService['deployment']>>['facts'];
