import mercurius from 'mercurius';
import type { Actor } from '../../../auth/actor.js';
import type { PipelinesRepository } from '../../../domains/pipelines/pipelines.repository.js';
import type { PipelinesService } from '../../../domains/pipelines/pipelines.service.js';
import type { EventBus } from '../../../platform/events.js';
import { parseGlobalId } from '../global-id.js';
import { ciResolvers } from './resolvers.js';
import type { CiGraphqlDeps } from './ci-scope.js';
import { RESOURCE_NOT_AVAILABLE, type SocketIdentity } from '../subscriptions.js';

const { withFilter } = mercurius;

/**
 * The live pipeline and job pages' subscriptions, fed by `pipeline.changed` (published in the
 * transaction of every transition) and `job.log_appended` (after each stored log chunk). As for
 * merge requests, the bus delivers after commit in every process; access is checked when
 * subscribing (unknown and hidden are the same error) and again on every delivery with the
 * connection's credentials re-checked, so someone who loses access stops hearing at once.
 */
export const topics = {
  pipeline: (pipelineId: number) => `pipeline.changed:${pipelineId}`,
  project: (projectId: number) => `pipeline.changed:project:${projectId}`,
  job: (jobId: number) => `job.changed:${jobId}`,
  log: (jobId: number) => `job.log_appended:${jobId}`,
};

export interface PipelineSubscriptionDeps {
  pipelines: Pick<PipelinesService, 'readableProject'>;
  pipelinesRepository: Pick<PipelinesRepository, 'pipelineById' | 'findJob' | 'stages' | 'withWarnings'>;
}

/** What the pipeline and job fields, mutations and subscriptions read and call. */
export type PipelineGraphqlDeps = PipelineSubscriptionDeps & CiGraphqlDeps;

interface Context {
  identity: SocketIdentity;
  pubsub: { subscribe(topic: string): Promise<AsyncIterable<unknown>> };
}

interface Delivery {
  projectId: number;
  pipelineId?: number;
  jobId?: number;
}

type ResolverMap = Record<string, object>;

export function pipelineSubscriptionResolvers(deps: PipelineSubscriptionDeps): { Subscription: ResolverMap } {
  const readable = async (actor: Actor | null, projectId: number) => actor !== null && (await deps.pipelines.readableProject(actor, projectId)) !== null;

  /** A subscription to one object: `find` names its project (null: none), `topic` its channel. */
  function live<A>(find: (args: A) => Promise<{ projectId: number; topic: string } | null>) {
    return withFilter<Delivery, unknown, Context, A>(
      async (_root, args, ctx) => {
        const target = await find(args);
        if (!target || !(await readable(ctx.identity.actor, target.projectId))) throw new Error(RESOURCE_NOT_AVAILABLE);
        return ctx.pubsub.subscribe(target.topic);
      },
      // Each delivery is a new request: fresh credentials, fresh access levels.
      async (payload, _args, ctx) => readable(await ctx.identity.refresh().catch(() => null), payload.projectId),
    );
  }

  const pipelineTarget = async (id: string) => {
    const parsed = parseGlobalId(id, ['Ci::Pipeline']);
    const row = parsed ? await deps.pipelinesRepository.pipelineById(parsed.id) : null;
    return row ? { projectId: row.project_id, topic: topics.pipeline(row.id) } : null;
  };
  const jobTarget = (topic: (jobId: number) => string) => async (args: { jobId: string }) => {
    const parsed = parseGlobalId(args.jobId, ['Ci::Build']);
    const row = parsed ? await deps.pipelinesRepository.findJob(parsed.id) : null;
    return row ? { projectId: row.project_id, topic: topic(row.id) } : null;
  };
  // Deliveries resolve to the same nodes as queries (the row and its project), so every field of
  // Pipeline and CiJob answers; the subscriber's access was checked by the filter just before.
  const pipelineOf = async (payload: Delivery, _args: unknown, ctx: Context) => {
    const pipeline = await deps.pipelinesRepository.pipelineById(payload.pipelineId!);
    const project = pipeline && ctx.identity.actor ? await deps.pipelines.readableProject(ctx.identity.actor, pipeline.project_id) : null;
    if (!pipeline || !project) return null;
    const [stages, warnings] = await Promise.all([deps.pipelinesRepository.stages(pipeline.id), deps.pipelinesRepository.withWarnings([pipeline.id])]);
    return { pipeline, project, stages, warnings: warnings.has(pipeline.id) };
  };
  const jobOf = async (payload: Delivery, _args: unknown, ctx: Context) => {
    const job = await deps.pipelinesRepository.findJob(payload.jobId!);
    const project = job && ctx.identity.actor ? await deps.pipelines.readableProject(ctx.identity.actor, job.project_id) : null;
    return job && project ? { job, project } : null;
  };

  return {
    Subscription: {
      ciPipelineStatusUpdated: { subscribe: live<{ pipelineId: string }>((args) => pipelineTarget(args.pipelineId)), resolve: pipelineOf },
      ciPipelineStatusesUpdated: {
        subscribe: live<{ projectId: string }>(async (args) => {
          const parsed = parseGlobalId(args.projectId, ['Project']);
          return parsed ? { projectId: parsed.id, topic: topics.project(parsed.id) } : null;
        }),
        resolve: pipelineOf,
      },
      ciJobStatusUpdated: { subscribe: live(jobTarget(topics.job)), resolve: jobOf },
      ciJobTraceUpdated: { subscribe: live(jobTarget(topics.log)), resolve: jobOf },
    },
  };
}

/**
 * Adds the pipeline and job fields, mutations and subscriptions to the rest of the schema's
 * resolvers (the widget's Pipeline fields stay; the fields here add to them).
 */
export function withPipelines(base: ResolverMap, deps: PipelineGraphqlDeps): ResolverMap {
  const own = pipelineSubscriptionResolvers(deps);
  const ci: ResolverMap = ciResolvers(deps);
  const merged: ResolverMap = { ...base };
  for (const [type, fields] of Object.entries(ci)) merged[type] = { ...(base[type] ?? {}), ...fields };
  merged.Subscription = { ...(base.Subscription ?? {}), ...own.Subscription };
  return merged;
}

/** Forwards the bus's pipeline and log events to this process's subscribers; returns the unsubscribe. */
export function bridgePipelineEvents(
  events: Pick<EventBus, 'subscribe'>,
  pubsub: { publish(event: { topic: string; payload: unknown }): unknown },
): () => void {
  const stops = [
    events.subscribe('pipeline.changed', async ({ payload }) => {
      const pipeline: Delivery = { projectId: payload.projectId, pipelineId: payload.pipelineId };
      await pubsub.publish({ topic: topics.pipeline(payload.pipelineId), payload: pipeline });
      await pubsub.publish({ topic: topics.project(payload.projectId), payload: pipeline });
      for (const jobId of payload.jobIds) await pubsub.publish({ topic: topics.job(jobId), payload: { projectId: payload.projectId, jobId } });
    }),
    events.subscribe('job.log_appended', async ({ payload }) => {
      await pubsub.publish({ topic: topics.log(payload.jobId), payload: { projectId: payload.projectId, jobId: payload.jobId } });
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
