/**
 * The CI/CD pipelines domain: creation (on push and through the API), the engine that moves
 * jobs and processes pipelines, and the service the REST API calls. `app.ts` wires the queue
 * jobs and the push reaction declared here.
 */
import { actorFor, ANONYMOUS } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import type { DomainEvent } from '../../platform/events.js';
import type { JobPayloadMap, JobQueue } from '../../platform/queue.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import type { ProtectedTagsRepository } from '../protected-tags/protected-tags.repository.js';
import { classifyRef, isDeletion } from '../pushes/push.js';
import type { RepositoryAccess } from '../repository/repository-access.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { MergeRequest } from '../merge-requests/merge-request.js';
import { createMergeRequestPipelines, CREATE_FOR_MERGE_REQUEST_JOB } from './merge-request-pipelines.service.js';
import { createPipelineCreation, CREATE_FOR_PUSH_JOB } from './pipeline-creation.service.js';
import { ASSIGN_RESOURCE_JOB, CANCEL_PIPELINE_JOB, CREATE_DOWNSTREAM_JOB, createPipelineEngine, ENQUEUE_SCHEDULED_JOB, UPDATE_BRIDGE_STATUS_JOB } from './pipeline-engine.service.js';
import { createDownstreamRepository } from './downstream/downstream.repository.js';
import { createDownstreamPipelines, type ArtifactFileOf } from './downstream/downstream-pipelines.service.js';
import { createPipelineRelations } from './downstream/pipeline-relations.service.js';
import { createResourceGroupsRepository } from './resource-groups.repository.js';
import { createResourceGroupsService } from './resource-groups.service.js';
import type { JobListener } from './pipeline.js';
import { createPipelinesRepository } from './pipelines.repository.js';
import { createPipelinesService } from './pipelines.service.js';

export { ASSIGN_RESOURCE_JOB, CANCEL_PIPELINE_JOB, CREATE_DOWNSTREAM_JOB, CREATE_FOR_MERGE_REQUEST_JOB, CREATE_FOR_PUSH_JOB, ENQUEUE_SCHEDULED_JOB, UPDATE_BRIDGE_STATUS_JOB };
export type { MergeRequestPipelines } from './merge-request-pipelines.service.js';

export function createPipelinesDomain(deps: {
  db: Database;
  queue: Pick<JobQueue, 'enqueue'>;
  authorizer: Pick<Authorizer, 'authorize' | 'can' | 'abilities'>;
  projects: Pick<ProjectsService, 'find'>;
  projectRows: Pick<ProjectsRepository, 'findById'>;
  users: Pick<UsersRepository, 'findById'>;
  access: Pick<RepositoryAccess, 'open' | 'pusher'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  protectedTags: Pick<ProtectedTagsRepository, 'listForProject'>;
  repoPath: (projectId: number) => string;
  serverUrl: string;
  /** merge requests, for merge request pipelines (the merge requests domain, app.ts) */
  mergeRequests: {
    findById(id: number): Promise<MergeRequest | undefined>;
    ciMetadata(id: number): Promise<{ labels: string[]; milestone: string | null; assignees: string[]; versionHeads: string[] }>;
  };
  mergeability: { recheck(mergeRequestId: number): Promise<MergeRequest | undefined> };
}) {
  const pipelinesRepository = createPipelinesRepository(deps.db);
  const downstreamRepository = createDownstreamRepository(deps.db);
  const resourceGroupsRepository = createResourceGroupsRepository(deps.db);
  // Other domains follow jobs through listeners registered after construction (listenToJobs).
  const listeners: JobListener[] = [];
  const pipelineEngine = createPipelineEngine({ db: deps.db, pipelines: pipelinesRepository, resourceGroups: resourceGroupsRepository, downstream: downstreamRepository, queue: deps.queue, listeners });
  const pipelineCreation = createPipelineCreation({
    db: deps.db,
    pipelines: pipelinesRepository,
    downstream: downstreamRepository,
    resourceGroups: resourceGroupsRepository,
    engine: pipelineEngine,
    access: deps.access,
    repoPath: deps.repoPath,
    serverUrl: deps.serverUrl,
    listeners,
  });
  const pipelines = createPipelinesService({
    projects: deps.projects,
    authorizer: deps.authorizer,
    access: deps.access,
    protectedBranches: deps.protectedBranches,
    protectedTags: deps.protectedTags,
    pipelines: pipelinesRepository,
    engine: pipelineEngine,
    creation: pipelineCreation,
    repoPath: deps.repoPath,
    db: deps.db,
    downstream: downstreamRepository,
    projectRows: deps.projectRows,
  });
  const resourceGroups = createResourceGroupsService({ projects: deps.projects, authorizer: deps.authorizer, resourceGroups: resourceGroupsRepository, pipelines });
  const pipelineRelations = createPipelineRelations({ projects: deps.projects, projectRows: deps.projectRows, authorizer: deps.authorizer, pipelines: pipelinesRepository, downstream: downstreamRepository });
  let artifactFileOf: ArtifactFileOf | undefined;
  const downstreamPipelines = createDownstreamPipelines({
    pipelines: pipelinesRepository,
    downstream: downstreamRepository,
    engine: pipelineEngine,
    creation: pipelineCreation,
    projects: deps.projects,
    projectRows: deps.projectRows,
    users: deps.users,
    authorizer: deps.authorizer,
    rules: pipelines,
    serverUrl: deps.serverUrl,
    repoPath: deps.repoPath,
    artifactFileOf: () => artifactFileOf,
  });

  const mergeRequestPipelines = createMergeRequestPipelines({
    queue: deps.queue,
    pipelines: pipelinesRepository,
    creation: pipelineCreation,
    rules: pipelines,
    authorizer: deps.authorizer,
    projectRows: deps.projectRows,
    users: deps.users,
    mergeRequests: deps.mergeRequests,
    mergeability: deps.mergeability,
    protectedBranches: deps.protectedBranches,
    serverUrl: deps.serverUrl,
  });

  return {
    pipelines,
    pipelinesRepository,
    mergeRequestPipelines,
    pipelineEngine,
    pipelineCreation,
    downstreamRepository,
    downstreamPipelines,
    resourceGroupsRepository,
    resourceGroups,
    pipelineRelations,

    /** How a child pipeline reads its parent's artifacts (the runner protocol domain holds them). */
    useArtifactFiles(reader: ArtifactFileOf): void {
      artifactFileOf = reader;
    },

    /** Registers a listener told of job creations and transitions in their transactions. */
    listenToJobs(listener: JobListener): void {
      listeners.push(listener);
    },

    /** The `repository.pushed` reaction, in the push's transaction: one creation job per pushed branch or tag. */
    async onPushed(event: DomainEvent<'repository.pushed'>, tx: Queryable): Promise<void> {
      const { projectId, userId, refs, pushOptions } = event.payload;
      for (const update of refs) {
        if (classifyRef(update.ref).kind === 'other' || isDeletion(update)) continue;
        await deps.queue.enqueue(CREATE_FOR_PUSH_JOB, { projectId, userId, ref: update.ref, oldSha: update.oldSha, newSha: update.newSha, ...(pushOptions ? { pushOptions } : {}) }, { tx });
      }
    },

    /** The creation job: the pushed commit's pipeline, as the pusher. */
    async runCreateForPush(payload: JobPayloadMap[typeof CREATE_FOR_PUSH_JOB]): Promise<void> {
      const project = await deps.projectRows.findById(payload.projectId);
      if (!project) return;
      const user = payload.userId === null ? undefined : await deps.users.findById(payload.userId);
      const ref = classifyRef(payload.ref);
      await pipelineCreation.createForPush({
        project,
        ref: ref.name,
        tag: ref.kind === 'tag',
        sha: payload.newSha,
        beforeSha: payload.oldSha,
        source: 'push',
        actor: user ? actorFor(user, 'session') : ANONYMOUS,
        pushOptions: payload.pushOptions,
      });
    },

    runEnqueueScheduled: (payload: JobPayloadMap[typeof ENQUEUE_SCHEDULED_JOB]) => pipelineEngine.enqueueScheduled(payload.jobId),
    runCreateDownstream: async (payload: JobPayloadMap[typeof CREATE_DOWNSTREAM_JOB]) => void (await downstreamPipelines.createDownstream(payload.bridgeId)),
    runUpdateBridgeStatus: (payload: JobPayloadMap[typeof UPDATE_BRIDGE_STATUS_JOB]) => downstreamPipelines.updateBridgeStatus(payload.pipelineId),
    runCancelPipeline: async (payload: JobPayloadMap[typeof CANCEL_PIPELINE_JOB]) => void (await pipelineEngine.cancelPipeline(payload.pipelineId)),
    runAssignResource: async (payload: JobPayloadMap[typeof ASSIGN_RESOURCE_JOB]) => void (await pipelineEngine.assignResource(payload.projectId, payload.key)),
  };
}
