/**
 * Environments and deployments following a pipeline's jobs, in the job's own transaction (a
 * JobListener the pipelines domain calls), as GitLab's Environments::CreateForJobService,
 * Deployments::CreateForJobService and the deployment state machine do:
 *
 * - a new job with `environment` ensures the environment (name and url already expanded by the
 *   `.gitlab-ci.yml` compiler; tier from `deployment_tier` or guessed from the name);
 * - `action: start` (the default) also creates a `created` deployment linked to the job, with
 *   the `on_stop` job's name; prepare, verify and access create none;
 * - the deployment follows its job (running, success, failed, canceled, skipped); a running
 *   deployment makes a stopped environment available again, a successful one sets the
 *   environment's url and `auto_stop_at` (and enqueues the auto stop for that moment);
 * - a successful `action: stop` job stops its environment; a failed or canceled one returns a
 *   stopping environment to available.
 */
import type { Queryable } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue.js';
import { parseDuration } from '../pipelines/config/duration.js';
import type { JobListener, JobRow, PipelineRow } from '../pipelines/pipeline.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import { deploymentStatusFor, TIERS, type Tier } from './environment-rules.js';
import type { EnvironmentsRepository } from './environments.repository.js';

export const AUTO_STOP_ENVIRONMENT_JOB = 'environments.auto_stop';

interface JobEnvironment {
  name: string;
  url?: string;
  action: 'start' | 'stop' | 'prepare' | 'verify' | 'access';
  onStop?: string;
  autoStopIn?: string;
  tier?: Tier;
}

/** The job's `environment` option as the compiler stored it, or null. */
export function jobEnvironment(job: Pick<JobRow, 'options'>): JobEnvironment | null {
  const raw = job.options.environment as Record<string, unknown> | undefined;
  if (!raw || typeof raw.name !== 'string') return null;
  const tier = typeof raw.deployment_tier === 'string' && (TIERS as readonly string[]).includes(raw.deployment_tier) ? (raw.deployment_tier as Tier) : undefined;
  return {
    name: raw.name,
    ...(typeof raw.url === 'string' ? { url: raw.url } : {}),
    action: (typeof raw.action === 'string' ? raw.action : 'start') as JobEnvironment['action'],
    ...(typeof raw.on_stop === 'string' ? { onStop: raw.on_stop } : {}),
    ...(typeof raw.auto_stop_in === 'string' ? { autoStopIn: raw.auto_stop_in } : {}),
    ...(tier ? { tier } : {}),
  };
}

export function createDeploymentTracking(deps: {
  environments: EnvironmentsRepository;
  pipelines: Pick<PipelinesRepository, 'pipelineById'>;
  queue: Pick<JobQueue, 'enqueue'>;
  now?: () => Date;
}): JobListener {
  const now = deps.now ?? (() => new Date());
  const repo = deps.environments;

  async function ensure(pipeline: Pick<PipelineRow, 'ref' | 'tag' | 'sha' | 'user_id'>, job: JobRow, env: JobEnvironment, tx: Queryable) {
    const environment = await repo.findOrCreate(job.project_id, env.name, { externalUrl: env.url ?? null, tier: env.tier ?? null }, tx);
    if (env.action !== 'start' || (await repo.deploymentForJob(job.id, tx))) return;
    await repo.insertDeployment(
      { projectId: job.project_id, environmentId: environment.id, jobId: job.id, ref: pipeline.ref, tag: pipeline.tag, sha: pipeline.sha, userId: job.user_id ?? pipeline.user_id, status: 'created', onStop: env.onStop ?? null },
      tx,
    );
  }

  return {
    async jobsCreated(pipeline, jobs, tx) {
      for (const job of jobs) {
        const env = jobEnvironment(job);
        if (env) await ensure(pipeline, job, env, tx);
      }
    },

    async jobMoved(job, tx) {
      const env = jobEnvironment(job);
      if (!env) return;
      if (env.action === 'stop') {
        const environment = await repo.findByName(job.project_id, env.name, tx);
        if (!environment) return;
        if (job.status === 'success') await repo.casState(environment.id, ['available', 'stopping'], 'stopped', tx);
        if (job.status === 'failed' || job.status === 'canceled') await repo.casState(environment.id, ['stopping'], 'available', tx);
        return;
      }
      if (env.action !== 'start') return;
      // A retried job is a new job: it gets its own deployment.
      if (!(await repo.deploymentForJob(job.id, tx))) {
        const pipeline = await deps.pipelines.pipelineById(job.pipeline_id, tx);
        if (!pipeline) return;
        await ensure(pipeline, job, env, tx);
      }
      const deployment = (await repo.deploymentForJob(job.id, tx))!;
      const status = deploymentStatusFor(job.status);
      if (!status || status === deployment.status) return;
      await repo.setDeploymentStatus(deployment.id, status, tx);
      if (status === 'running') await repo.casState(deployment.environment_id, ['stopped'], 'available', tx);
      if (status === 'success') {
        const seconds = env.autoStopIn && env.autoStopIn !== 'never' ? parseDuration(env.autoStopIn) : null;
        const autoStopAt = seconds !== null ? new Date(now().getTime() + seconds * 1000) : null;
        await repo.casState(deployment.environment_id, ['stopped', 'stopping'], 'available', tx);
        await repo.update(deployment.environment_id, { ...(env.url ? { external_url: env.url } : {}), ...(env.tier ? { tier: env.tier } : {}), auto_stop_at: autoStopAt }, tx);
        if (autoStopAt) await deps.queue.enqueue(AUTO_STOP_ENVIRONMENT_JOB, { environmentId: deployment.environment_id }, { runAt: autoStopAt, tx });
      }
    },
  };
}
