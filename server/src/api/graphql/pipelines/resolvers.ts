/**
 * GitLab's pipeline and job fields (Types::Ci::PipelineType, JobType, StageType, GroupType) and
 * the job and pipeline mutations. Reads go through the per-request CI scope (ci-scope.ts: batched,
 * read_pipeline checked once per project); what the caller may not read is null. Mutations call
 * the pipelines service the REST routes call, so permission and ref protection are decided once.
 */
import { jobDetailedStatus, manualConfirmationMessage, stopsEnvironment, pipelineDetailedStatus } from '../../../domains/pipelines/engine/detailed-status.js';
import { GraphQLError } from 'graphql';
import { compositeStatus } from '../../../domains/pipelines/engine/composite.js';
import type { JobRow, StageRow } from '../../../domains/pipelines/pipeline.js';
import type { Project } from '../../../domains/projects/project.js';
import { isStatus } from '../../../domains/pipelines/engine/status.js';
import { globalId, parseGlobalId } from '../global-id.js';
import { mutation, resourceNotAvailable } from '../editor/errors.js';
import { writer } from '../editor/mutations.js';
import type { GraphqlContext } from '../resolvers.js';
import { pipelinePath } from '../widget/pipeline-view.js';
import { traceHtmlSummary } from '../../../domains/runner-protocol/trace-html.js';
import type { JobArtifactRow } from '../../../domains/runner-protocol/job-artifacts.repository.js';
import { graphqlDetailedStatus } from './detailed-status.js';
import { createCiScope, jobGroupName, type CiGraphqlDeps, type CiScope, type JobNode, type PipelineNode } from './ci-scope.js';

const scopes = new WeakMap<object, CiScope>();
/** The request's CI scope; CI answers are never kept by the response cache (see docs/graphql.md). */
function ciOf(ctx: GraphqlContext, deps: CiGraphqlDeps): CiScope {
  // A subscription delivery has no request scope: its payload carries the pipeline's own fields,
  // stages and status; jobs and links are read with a query when it arrives.
  if (!ctx.scope) throw new GraphQLError('This field is not available in a subscription payload; query it instead');
  ctx.noStore?.();
  let found = scopes.get(ctx.scope);
  if (!found) scopes.set(ctx.scope, (found = createCiScope(deps, ctx.scope)));
  return found;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;
const seconds = (from: Date | null, to: Date | null) => (from ? ((to ? to.getTime() : Date.now()) - from.getTime()) / 1000 : null);
/** GitLab's cancelable statuses (Ci::HasStatus::CANCELABLE_STATUSES) and completed ones. */
const CANCELABLE = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled']);
const ACTIVE = new Set(['waiting_for_resource', 'preparing', 'pending', 'running', 'canceling']);
const COMPLETED = new Set(['success', 'failed', 'canceled', 'skipped']);
const RETRYABLE = new Set(['success', 'failed', 'canceled']);
const MAX_PAGE = 100;
/** The JobArtifactFileType values of the schema, in the runner's spelling. */
const ARTIFACT_FILE_TYPES = new Set(
  'archive metadata trace junit metrics metrics_referee network_referee dotenv cobertura cluster_applications lsif cyclonedx sast secret_detection dependency_scanning container_scanning cluster_image_scanning dast license_scanning accessibility codequality performance browser_performance load_performance terraform requirements requirements_v2 coverage_fuzzing api_fuzzing annotations repository_xray jacoco'.split(' '),
);

/** Offset cursors: opaque to clients, as GitLab's are. */
const cursorOf = (offset: number) => Buffer.from(String(offset)).toString('base64');
const offsetOf = (after: string | undefined | null) => {
  const value = after ? Number(Buffer.from(after, 'base64').toString()) : 0;
  return Number.isSafeInteger(value) && value >= 0 ? value : 0;
};
const pageSize = (first: number | undefined | null) => Math.min(Math.max(first ?? MAX_PAGE, 0), MAX_PAGE);

function page<T>(all: readonly T[], args: { first?: number | null; after?: string | null }) {
  const offset = offsetOf(args.after);
  const size = pageSize(args.first);
  const nodes = all.slice(offset, offset + size);
  return {
    count: all.length,
    nodes,
    pageInfo: { hasNextPage: offset + size < all.length, hasPreviousPage: offset > 0, startCursor: nodes.length ? cursorOf(offset) : null, endCursor: nodes.length ? cursorOf(offset + nodes.length) : null },
  };
}

const jobPath = ({ job, project }: JobNode) => `/${project.full_path}/-/jobs/${job.id}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- GraphQL arguments differ per field; each resolver types its own
type Resolvers<P> = Record<string, (parent: P, args: any, ctx: GraphqlContext) => unknown>;

export function ciResolvers(deps: CiGraphqlDeps) {
  const ci = (ctx: GraphqlContext) => ciOf(ctx, deps);
  const jobsOf = (node: PipelineNode, ctx: GraphqlContext) => ci(ctx).jobs.load(node.pipeline.id);
  const stagesOf = async (node: PipelineNode, ctx: GraphqlContext) => node.stages ?? ci(ctx).stages.load(node.pipeline.id);
  const asJobs = (node: { project: Project }, jobs: readonly JobRow[]) => jobs.map((job) => ({ job, project: node.project }));

  async function jobStatus(node: JobNode, ctx: GraphqlContext) {
    const pipeline = await ci(ctx).pipeline(node.job.pipeline_id);
    const canUpdate = pipeline ? await ci(ctx).canUpdate(pipeline) : false;
    const path = jobPath(node);
    const { job } = node;
    const status = jobDetailedStatus(
      { status: job.status, allowFailure: job.allow_failure, failureReason: job.failure_reason, when: job.when, retried: job.retried, type: job.type, canUpdate, manualConfirmation: manualConfirmationMessage(job), stopsEnvironment: stopsEnvironment(job) },
      { details: path, retry: `${path}/retry`, play: `${path}/play`, cancel: `${path}/cancel`, unschedule: `${path}/unschedule` },
    );
    return graphqlDetailedStatus(status, `${status.group}-${job.id}`);
  }

  /** A stage as CiStage: the widget's fields, and what groups and jobs are built from. */
  const stageNode = (node: PipelineNode, stage: StageRow) => {
    const status = pipelineDetailedStatus({ status: stage.status, warnings: false }, `${pipelinePath(node)}#${stage.name}`);
    return { id: globalId('Ci::Stage', stage.id), name: stage.name, status: stage.status, detailedStatus: graphqlDetailedStatus(status, `${status.group}-${stage.id}`), stage, node };
  };
  type StageNode = ReturnType<typeof stageNode>;
  const stageJobs = async ({ stage, node }: StageNode, ctx: GraphqlContext) => (await jobsOf(node, ctx)).filter((job) => job.stage_id === stage.id);

  const Pipeline: Resolvers<PipelineNode> = {
    name: ({ pipeline }) => pipeline.name,
    startedAt: ({ pipeline }) => iso(pipeline.started_at),
    queuedDuration: ({ pipeline }) => pipeline.queued_duration,
    complete: ({ pipeline }) => COMPLETED.has(pipeline.status),
    usesNeeds: async (node, _, ctx) => (await jobsOf(node, ctx)).some((job) => job.scheduling_type === 'dag'),
    cancelable: async (node, _, ctx) => (await jobsOf(node, ctx)).some((job) => CANCELABLE.has(job.status)),
    retryable: async (node, _, ctx) => (await jobsOf(node, ctx)).some((job) => job.type !== 'generic' && (job.status === 'failed' || job.status === 'canceled')),
    user: ({ pipeline }, _, ctx) => ctx.scope.user(pipeline.user_id),
    project: ({ project }) => project,
    failureReason: ({ pipeline }) => pipeline.failure_reason,
    yamlErrors: ({ pipeline }) => pipeline.yaml_errors !== null,
    yamlErrorMessages: ({ pipeline }) => pipeline.yaml_errors,
    detailedStatus: async (node, _, ctx) => {
      const warnings = node.warnings ?? (await ci(ctx).warnings.load(node.pipeline.id));
      const status = pipelineDetailedStatus({ status: node.pipeline.status, warnings }, pipelinePath(node));
      return graphqlDetailedStatus(status, `${status.group}-${node.pipeline.id}`);
    },
    stages: async (node, _, ctx) => ({ nodes: (await stagesOf(node, ctx)).map((stage) => stageNode(node, stage)) }),
    userPermissions: async (node, _, ctx) => {
      const abilities = await ctx.scope.abilities(node.project);
      const update = await ci(ctx).canUpdate(node);
      return { adminPipeline: abilities.has('destroy_pipeline'), destroyPipeline: abilities.has('destroy_pipeline'), readPipeline: true, updatePipeline: update };
    },
    jobs: async (node, args: { statuses?: string[] | null; first?: number; after?: string }, ctx) => {
      const wanted = args.statuses?.map((status) => status.toLowerCase());
      const jobs = (await jobsOf(node, ctx)).filter((job) => !wanted || wanted.includes(job.status));
      return page(asJobs(node, jobs), args);
    },
    job: async (node, args: { id?: string; name?: string }, ctx) => {
      const id = args.id ? parseGlobalId(args.id, ['Ci::Build', 'Ci::Bridge', 'CommitStatus'])?.id : undefined;
      const job = (await jobsOf(node, ctx)).find((row) => (id === undefined || row.id === id) && (args.name === undefined || row.name === args.name));
      return job && (args.id !== undefined || args.name !== undefined) ? { job, project: node.project } : null;
    },
    upstream: async (node, _, ctx) => {
      const link = await deps.downstream.upstreamOf(node.pipeline.id);
      return link ? ci(ctx).pipeline(link.pipeline.id) : null;
    },
    manualVariables: async (node, _, ctx) => {
      const { variables } = await deps.pipelines.manualVariables(ctx.scope.actor, node.project, node.pipeline);
      const nodes = variables.map((variable) => ({ id: globalId('Ci::PipelineVariable', variable.id), key: variable.key, value: variable.value }));
      return { count: nodes.length, nodes };
    },
    sourceJob: async (node, _, ctx) => {
      const link = await deps.downstream.upstreamOf(node.pipeline.id);
      const upstream = link?.bridgeId ? await ci(ctx).pipeline(link.pipeline.id) : null;
      const job = upstream && link?.bridgeId ? await deps.pipelinesRepository.findJob(link.bridgeId) : null;
      return job && upstream ? { job, project: upstream.project } : null;
    },
    downstream: async (node, _, ctx) => {
      const rows = await deps.downstream.downstreamOf(node.pipeline.id);
      const nodes = (await Promise.all(rows.map((row) => ci(ctx).pipeline(row.id)))).filter((found): found is PipelineNode => found !== null);
      return page(nodes, {});
    },
  };

  const CiStage: Resolvers<StageNode> = {
    groups: async (stageNode, _, ctx) => {
      const groups = new Map<string, JobRow[]>();
      for (const job of await stageJobs(stageNode, ctx)) {
        const name = jobGroupName(job.name);
        groups.set(name, [...(groups.get(name) ?? []), job]);
      }
      return {
        nodes: [...groups].map(([name, jobs]) => {
          const id = `${stageNode.stage.id}-${name}`;
          const composite = compositeStatus(jobs.map((job) => ({ status: job.status, allowFailure: job.allow_failure })));
          const status = pipelineDetailedStatus({ status: composite.status ?? 'created', warnings: composite.warnings }, `${pipelinePath(stageNode.node)}#${stageNode.stage.name}`);
          return { id, name, size: jobs.length, detailedStatus: { ...graphqlDetailedStatus(status, `${status.group}-${id}`), hasDetails: false, detailsPath: null }, jobs: page(asJobs(stageNode.node, jobs), {}) };
        }),
      };
    },
    jobs: async (stageNode, _, ctx) => page(asJobs(stageNode.node, await stageJobs(stageNode, ctx)), {}),
  };

  const CiJob: Resolvers<JobNode> = {
    id: ({ job }) => globalId(job.type === 'bridge' ? 'Ci::Bridge' : 'Ci::Build', job.id),
    name: ({ job }) => job.name,
    status: ({ job }) => job.status.toUpperCase(),
    kind: ({ job }) => (job.type === 'bridge' ? 'BRIDGE' : 'BUILD'),
    detailedStatus: (node, _, ctx) => jobStatus(node, ctx),
    stage: ({ job }) => ({ id: globalId('Ci::Stage', job.stage_id), name: job.stage }),
    allowFailure: ({ job }) => job.allow_failure,
    duration: ({ job }) => (job.started_at ? Math.round(seconds(job.started_at, job.finished_at)!) : null),
    queuedDuration: ({ job }) => (job.queued_at ? seconds(job.queued_at, job.started_at) : null),
    createdAt: ({ job }) => iso(job.created_at),
    startedAt: ({ job }) => iso(job.started_at),
    finishedAt: ({ job }) => iso(job.finished_at),
    erasedAt: ({ job }) => iso(job.erased_at),
    scheduled: ({ job }) => job.status === 'scheduled',
    scheduledAt: ({ job }) => iso(job.scheduled_at),
    manualJob: ({ job }) => job.when === 'manual',
    retryable: ({ job }) => job.type !== 'generic' && !job.retried && RETRYABLE.has(job.status),
    cancelable: ({ job }) => CANCELABLE.has(job.status),
    playable: ({ job }) => job.status === 'manual' || job.status === 'scheduled',
    retried: ({ job }) => job.retried,
    active: ({ job }) => ACTIVE.has(job.status),
    needs: ({ job }) => ({ nodes: job.needs.map((need) => ({ id: `${job.id}-${need.name}`, name: need.name })) }),
    // GitLab's previous_stage_jobs_or_needs: a DAG job's needs, else every job of the stage before.
    previousStageJobsOrNeeds: async (node, _, ctx) => {
      const { job } = node;
      if (job.scheduling_type === 'dag') return { nodes: job.needs.map((need) => ({ __typename: 'CiBuildNeed', id: `${job.id}-${need.name}`, name: need.name })) };
      const jobs = await ci(ctx).jobs.load(job.pipeline_id);
      const previous = Math.max(-1, ...jobs.filter((row) => row.stage_idx < job.stage_idx).map((row) => row.stage_idx));
      return { nodes: asJobs(node, jobs.filter((row) => row.stage_idx === previous)) };
    },
    webPath: (node) => jobPath(node),
    pipeline: ({ job }, _, ctx) => ci(ctx).pipeline(job.pipeline_id),
    refName: async ({ job }, _, ctx) => (await ci(ctx).pipeline(job.pipeline_id))?.pipeline.ref ?? null,
    refPath: async ({ job, project }, _, ctx) => {
      const ref = (await ci(ctx).pipeline(job.pipeline_id))?.pipeline.ref;
      return ref ? `/${project.full_path}/-/commits/${ref}` : null;
    },
    shortSha: async ({ job }, _, ctx) => (await ci(ctx).pipeline(job.pipeline_id))?.pipeline.sha.slice(0, 8) ?? '',
    tags: ({ job }) => job.tags,
    coverage: ({ job }) => job.coverage,
    failureMessage: ({ job }) => (job.status === 'failed' ? (job.failure_reason ?? 'unknown_failure').replace(/_/g, ' ') : null),
    downstreamPipeline: async ({ job }, _, ctx) => {
      if (job.type !== 'bridge') return null;
      const row = await ci(ctx).downstreamOfBridge.load(job.id);
      return row ? ci(ctx).pipeline(row.id) : null;
    },
    // GitLab's job_artifacts of a build (a bridge has none); each downloads from the job's web path.
    artifacts: async (node, args: { first?: number; after?: string }, ctx) => {
      if (node.job.type !== 'build') return null;
      const rows = await ci(ctx).artifacts.load(node.job.id);
      return page(rows.map((artifact) => ({ artifact, node })), args);
    },
    // GitLab's `trace if has_trace?`: null until the runner sent a byte of log.
    trace: async (node) => ((await deps.logs.logSize(node.job)) > 0 ? { node } : null),
    browseArtifactsPath: (node) => `${jobPath(node)}/artifacts/browse`,
    playPath: (node) => `${jobPath(node)}/play`,
    retryPath: (node) => (node.job.type !== 'generic' && !node.job.retried && RETRYABLE.has(node.job.status) ? `${jobPath(node)}/retry` : null),
    commitPath: async ({ job, project }, _, ctx) => {
      const sha = (await ci(ctx).pipeline(job.pipeline_id))?.pipeline.sha;
      return sha ? `/${project.full_path}/-/commit/${sha}` : null;
    },
    schedulingType: ({ job }) => job.scheduling_type,
    queuedAt: ({ job }) => iso(job.queued_at),
    exitCode: ({ job }) => job.exit_code,
    createdByTag: async ({ job }, _, ctx) => (await ci(ctx).pipeline(job.pipeline_id))?.pipeline.tag ?? false,
    userPermissions: async (node, _, ctx) => {
      const pipeline = await ci(ctx).pipeline(node.job.pipeline_id);
      const update = pipeline ? await ci(ctx).canUpdate(pipeline) : false;
      return { readBuild: true, readJobArtifacts: true, updateBuild: update, cancelBuild: update };
    },
  };

  type ArtifactNode = { artifact: JobArtifactRow; node: JobNode };
  const CiJobArtifact: Resolvers<ArtifactNode> = {
    id: ({ artifact }) => globalId('Ci::JobArtifact', artifact.id),
    name: ({ artifact }) => artifact.filename,
    // a type the schema's enum does not know (the runner may name any) is null, not an error
    fileType: ({ artifact }) => (ARTIFACT_FILE_TYPES.has(artifact.file_type) ? artifact.file_type.toUpperCase() : null),
    downloadPath: ({ artifact, node }) => `${jobPath(node)}/artifacts/download?file_type=${encodeURIComponent(artifact.file_type)}`,
    size: ({ artifact }) => String(artifact.size),
    expireAt: ({ artifact }) => iso(artifact.expire_at),
  };

  const CiJobTrace: Resolvers<{ node: JobNode }> = {
    htmlSummary: async ({ node }, args: { lastLines?: number | null }) => traceHtmlSummary(await deps.logs.readLog(node.job), args.lastLines ?? undefined),
  };

  const Project: Resolvers<Project> = {
    pipelines: async (project, args: { status?: string; scope?: string; ref?: string; sha?: string; source?: string; first?: number; after?: string }, ctx) => {
      const readable = await ci(ctx).project(project.id);
      if (!readable) return null;
      const status = args.status?.toLowerCase();
      const offset = offsetOf(args.after);
      const limit = pageSize(args.first);
      const { pipelines, total } = await deps.pipelinesRepository.listPipelines({
        projectId: project.id,
        ...(status && isStatus(status) ? { status } : {}),
        ...(args.scope ? { scope: args.scope.toLowerCase() as 'running' } : {}),
        ...(args.ref ? { ref: args.ref } : {}),
        ...(args.sha ? { sha: args.sha } : {}),
        ...(args.source ? { source: args.source } : {}),
        orderBy: 'id',
        sort: 'desc',
        limit,
        offset,
      });
      const nodes = pipelines.map((pipeline) => ({ pipeline, project: readable }));
      return {
        count: total,
        nodes,
        pageInfo: { hasNextPage: offset + nodes.length < total, hasPreviousPage: offset > 0, startCursor: nodes.length ? cursorOf(offset) : null, endCursor: nodes.length ? cursorOf(offset + nodes.length) : null },
      };
    },
    pipeline: async (project, args: { iid?: string; id?: string; sha?: string }, ctx) => {
      const readable = await ci(ctx).project(project.id);
      if (!readable) return null;
      if (args.id) {
        const parsed = parseGlobalId(args.id, ['Ci::Pipeline']);
        const found = parsed ? await ci(ctx).pipeline(parsed.id) : null;
        return found && found.project.id === project.id ? found : null;
      }
      const iid = args.iid !== undefined ? Number(args.iid) : undefined;
      if (iid !== undefined && !(Number.isSafeInteger(iid) && iid > 0)) return null;
      if (iid === undefined && !args.sha) return null;
      const found = await deps.pipelinesRepository.findPipelineBy(project.id, { iid, sha: args.sha });
      return found ? { pipeline: found, project: readable } : null;
    },
    job: async (project, args: { id: string }, ctx) => {
      const readable = await ci(ctx).project(project.id);
      const parsed = parseGlobalId(args.id, ['Ci::Build', 'Ci::Bridge', 'CommitStatus']);
      const job = readable && parsed ? await deps.pipelinesRepository.findJob(parsed.id) : null;
      return job && readable && job.project_id === project.id ? { job, project: readable } : null;
    },
  };

  /** The job a mutation names, or GitLab's top-level refusal (unknown and hidden alike). */
  async function namedJob(id: string, types: ('Ci::Build' | 'Ci::Bridge')[]) {
    const parsed = parseGlobalId(id, types);
    const job = parsed ? await deps.pipelinesRepository.findJob(parsed.id) : null;
    if (!job) throw resourceNotAvailable();
    return job;
  }
  async function namedPipeline(id: string) {
    const parsed = parseGlobalId(id, ['Ci::Pipeline']);
    const pipeline = parsed ? await deps.pipelinesRepository.pipelineById(parsed.id) : null;
    if (!pipeline) throw resourceNotAvailable();
    return pipeline;
  }
  const jobNode = (result: JobNode) => ({ job: { job: result.job, project: result.project } });
  const withClientId = <T extends object>(input: { clientMutationId?: string }, payload: T) => ({ ...payload, clientMutationId: input.clientMutationId ?? null });

  type Input = { id: string; clientMutationId?: string; variables?: { key: string; value: string }[] };
  const Mutation: Resolvers<unknown> = {
    jobRetry: async (_, { input }: { input: Input }, ctx) => {
      const actor = writer(ctx);
      const job = await namedJob(input.id, ['Ci::Build', 'Ci::Bridge']);
      return withClientId(input, await mutation(async () => jobNode(await deps.pipelines.retryJob(actor, job.project_id, job.id))));
    },
    jobPlay: async (_, { input }: { input: Input }, ctx) => {
      const actor = writer(ctx);
      const job = await namedJob(input.id, ['Ci::Build', 'Ci::Bridge']);
      return withClientId(input, await mutation(async () => jobNode(await deps.pipelines.playJob(actor, job.project_id, job.id, input.variables))));
    },
    jobCancel: async (_, { input }: { input: Input }, ctx) => {
      const actor = writer(ctx);
      const job = await namedJob(input.id, ['Ci::Build']);
      return withClientId(input, await mutation(async () => jobNode(await deps.pipelines.cancelJob(actor, job.project_id, job.id))));
    },
    jobUnschedule: async (_, { input }: { input: Input }, ctx) => {
      const actor = writer(ctx);
      const job = await namedJob(input.id, ['Ci::Build']);
      return withClientId(input, await mutation(async () => jobNode(await deps.pipelines.unscheduleJob(actor, job.project_id, job.id))));
    },
    pipelineRetry: async (_, { input }: { input: Input }, ctx) => {
      const actor = writer(ctx);
      const pipeline = await namedPipeline(input.id);
      return withClientId(input, await mutation(async () => { const retried = await deps.pipelines.retry(actor, pipeline.project_id, pipeline.id); return { pipeline: { pipeline: retried.pipeline, project: retried.project } }; }));
    },
    pipelineCancel: async (_, { input }: { input: Input }, ctx) => {
      const actor = writer(ctx);
      const pipeline = await namedPipeline(input.id);
      return withClientId(input, await mutation(async () => (await deps.pipelines.cancel(actor, pipeline.project_id, pipeline.id), {})));
    },
    pipelineDestroy: async (_, { input }: { input: Input }, ctx) => {
      const actor = writer(ctx);
      const pipeline = await namedPipeline(input.id);
      return withClientId(input, await mutation(async () => (await deps.pipelines.remove(actor, pipeline.project_id, pipeline.id), {})));
    },
  };

  return {
    Pipeline,
    CiStage,
    CiJob,
    CiJobArtifact,
    CiJobTrace,
    Project,
    Mutation,
    JobNeedUnion: { resolveType: (value: { __typename?: string }) => (value.__typename === 'CiBuildNeed' ? 'CiBuildNeed' : 'CiJob') },
  };
}
