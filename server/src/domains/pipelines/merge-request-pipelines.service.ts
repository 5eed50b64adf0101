/**
 * Merge request pipelines (GitLab's MergeRequests::CreatePipelineService, with EE's merged
 * results pipelines), the merge request's pipeline (head_pipeline) and its pipelines list.
 *
 * - A new version of a merge request (it was opened, or its source branch was pushed) enqueues,
 *   in the version's transaction, a job that creates a merge request pipeline when the
 *   configuration has jobs whose rules take `$CI_PIPELINE_SOURCE == "merge_request_event"`.
 *   Nothing is created when the merge request has no commits or already has a merge request
 *   pipeline for its head (a retried job, or a retarget that kept the head).
 * - Where it runs (GitLab's can_create_pipeline_in_target_project?): in the target project when
 *   the user may create pipelines there and, for a same-project request, may update the source
 *   branch (a fork's source branch is not in the target project, so only the first applies);
 *   otherwise in the source project, on the source branch.
 * - What it runs: with "merged results pipelines" on and the pipeline in the target project,
 *   the trial merge commit (refs/merge-requests/:iid/merge, rechecked first by the
 *   mergeability machinery); when the request cannot be merged, or the setting is off, the
 *   source head (a detached pipeline, refs/merge-requests/:iid/head).
 */
import type { Actor } from '../../auth/actor.js';
import { actorFor, ANONYMOUS } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Queryable } from '../../platform/db/database.js';
import { ForbiddenError, MethodNotAllowedError, ValidationError } from '../../platform/errors.js';
import type { DomainEvent } from '../../platform/events.js';
import type { JobPayloadMap, JobQueue } from '../../platform/queue.js';
import type { MergeRequest } from '../merge-requests/merge-request.js';
import type { Project } from '../projects/project.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import { protectionsFor } from '../protected-branches/push-rules.js';
import type { UsersRepository } from '../users/users.repository.js';
import { mergeRequestVariables, type MergeRequestEventType } from './config/merge-request-variables.js';
import type { PipelineRow } from './pipeline.js';
import type { CreateOutcome, PipelineCreation } from './pipeline-creation.service.js';
import type { PipelinesRepository } from './pipelines.repository.js';
import type { PipelinesService } from './pipelines.service.js';

export const CREATE_FOR_MERGE_REQUEST_JOB = 'pipelines.create_for_merge_request';

/** GitLab's answer when a merge request gets no pipeline (the API turns it into 405). */
export const CANNOT_CREATE_PIPELINE = 'Cannot create a pipeline for this merge request.';

export const mergeRequestRefPath = (iid: number, kind: 'head' | 'merge' | 'train') => `refs/merge-requests/${iid}/${kind}`;

/** Where and on what a merge request pipeline runs. */
export interface MergeRequestPipelinePlan {
  project: Project;
  ref: string;
  sha: string;
  eventType: MergeRequestEventType;
  /** a merged results pipeline's head and target */
  sourceSha: string | null;
  targetSha: string | null;
}

/**
 * Which project and ref a detached pipeline uses (GitLab's detached_pipeline_project_and_ref).
 * Pure: the permissions are answered by the caller.
 */
export function detachedPipelineTarget(input: { inTargetProject: boolean; iid: number; sourceBranch: string }): { project: 'target' | 'source'; ref: string } {
  return input.inTargetProject ? { project: 'target', ref: mergeRequestRefPath(input.iid, 'head') } : { project: 'source', ref: input.sourceBranch };
}

export function createMergeRequestPipelines(deps: {
  queue: Pick<JobQueue, 'enqueue'>;
  pipelines: Pick<PipelinesRepository, 'hasMergeRequestPipelineFor' | 'headPipelines' | 'forMergeRequest'>;
  creation: Pick<PipelineCreation, 'createForMergeRequest'>;
  rules: Pick<PipelinesService, 'mayUpdateRef' | 'refusalToCreate'>;
  authorizer: Pick<Authorizer, 'can'>;
  projectRows: Pick<ProjectsRepository, 'findById'>;
  users: Pick<UsersRepository, 'findById'>;
  mergeRequests: {
    findById(id: number): Promise<MergeRequest | undefined>;
    ciMetadata(id: number): Promise<{ labels: string[]; milestone: string | null; assignees: string[]; versionHeads: string[] }>;
  };
  /** the trial merge made current (refs/merge-requests/:iid/merge), as GET …/merge_ref does */
  mergeability: { recheck(mergeRequestId: number): Promise<MergeRequest | undefined> };
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  serverUrl: string;
}) {
  /** GitLab's can_create_pipeline_in_target_project?. */
  async function mayRunInTarget(actor: Actor, mergeRequest: MergeRequest, target: Project): Promise<boolean> {
    if (!actor.user || !(await deps.authorizer.can(actor, 'create_pipeline', { project: target }))) return false;
    if (mergeRequest.source_project_id !== target.id) return true;
    return deps.rules.mayUpdateRef(actor, target, mergeRequest.source_branch, false);
  }

  /** Where the pipeline runs and on which commit; null when the merge request has nothing to run. */
  async function plan(actor: Actor, mergeRequest: MergeRequest, target: Project, source: Project): Promise<MergeRequestPipelinePlan | null> {
    const head = mergeRequest.head_commit_sha;
    if (head === null || !mergeRequest.commits_count) return null;
    const inTarget = await mayRunInTarget(actor, mergeRequest, target);
    if (inTarget && target.merge_pipelines_enabled) {
      const checked = await deps.mergeability.recheck(mergeRequest.id);
      if (checked && checked.merge_status === 'can_be_merged' && checked.merge_ref_sha && checked.merge_check_head_sha === head) {
        return {
          project: target,
          ref: mergeRequestRefPath(mergeRequest.iid, 'merge'),
          sha: checked.merge_ref_sha,
          eventType: 'merged_result',
          sourceSha: head,
          targetSha: checked.merge_check_target_sha,
        };
      }
    }
    const detached = detachedPipelineTarget({ inTargetProject: inTarget, iid: mergeRequest.iid, sourceBranch: mergeRequest.source_branch });
    return { project: detached.project === 'target' ? target : source, ref: detached.ref, sha: head, eventType: 'detached', sourceSha: null, targetSha: null };
  }

  async function create(actor: Actor, mergeRequest: MergeRequest, target: Project, options: { allowDuplicate: boolean }): Promise<CreateOutcome | null> {
    if (mergeRequest.source_project_id === null) return null;
    if (!options.allowDuplicate && mergeRequest.head_commit_sha && (await deps.pipelines.hasMergeRequestPipelineFor(mergeRequest.id, mergeRequest.head_commit_sha))) return null;
    const source = mergeRequest.source_project_id === target.id ? target : await deps.projectRows.findById(mergeRequest.source_project_id);
    if (!source) return null;
    const chosen = await plan(actor, mergeRequest, target, source);
    if (!chosen) return null;
    return createPlanned(actor, mergeRequest, target, source, chosen);
  }

  async function createPlanned(actor: Actor, mergeRequest: MergeRequest, target: Project, source: Project, chosen: MergeRequestPipelinePlan): Promise<CreateOutcome | null> {
    const [metadata, targetProtections, sourceProtections] = await Promise.all([
      deps.mergeRequests.ciMetadata(mergeRequest.id),
      deps.protectedBranches.listForProject(target.id),
      deps.protectedBranches.listForProject(source.id),
    ]);
    const squashOnMerge = mergeRequest.target_squash_option === 'always' || (mergeRequest.target_squash_option !== 'never' && mergeRequest.squash);
    const variables = mergeRequestVariables({
      serverUrl: deps.serverUrl,
      eventType: chosen.eventType,
      mergeRequest: {
        id: mergeRequest.id,
        iid: mergeRequest.iid,
        title: mergeRequest.title,
        description: mergeRequest.description,
        sourceBranch: mergeRequest.source_branch,
        targetBranch: mergeRequest.target_branch,
        draft: mergeRequest.draft,
        squashOnMerge,
      },
      targetProject: { id: target.id, fullPath: target.full_path },
      sourceProject: { id: source.id, fullPath: source.full_path },
      sourceBranchProtected: protectionsFor(mergeRequest.source_branch, sourceProtections).length > 0,
      targetBranchProtected: protectionsFor(mergeRequest.target_branch, targetProtections).length > 0,
      sourceSha: chosen.sourceSha,
      targetSha: chosen.targetSha,
      diff: mergeRequest.latest_diff_id === null ? null : { id: mergeRequest.latest_diff_id, baseSha: mergeRequest.base_commit_sha },
      labels: metadata.labels,
      milestone: metadata.milestone,
      assignees: metadata.assignees,
    });
    return deps.creation.createForMergeRequest({
      project: chosen.project,
      ref: chosen.ref,
      sha: chosen.sha,
      source: 'merge_request_event',
      actor,
      mergeRequest: {
        id: mergeRequest.id,
        sourceBranch: mergeRequest.source_branch,
        sourceSha: chosen.sourceSha,
        targetSha: chosen.targetSha,
        diffBaseSha: mergeRequest.base_commit_sha,
        variables,
      },
    });
  }

  return {
    /**
     * A merge train pipeline (GitLab's MergeTrains::CreatePipelineService): on the car's train
     * commit at refs/merge-requests/:iid/train, in the target project, source
     * merge_request_event, event type merge_train; as `actor` (who added the car).
     */
    async createForTrain(actor: Actor, mergeRequest: MergeRequest, target: Project, train: { sha: string; targetSha: string }): Promise<CreateOutcome | null> {
      if (mergeRequest.source_project_id === null || mergeRequest.head_commit_sha === null) return null;
      const source = mergeRequest.source_project_id === target.id ? target : await deps.projectRows.findById(mergeRequest.source_project_id);
      if (!source) return null;
      return createPlanned(actor, mergeRequest, target, source, {
        project: target,
        ref: mergeRequestRefPath(mergeRequest.iid, 'train'),
        sha: train.sha,
        eventType: 'merge_train',
        sourceSha: mergeRequest.head_commit_sha,
        targetSha: train.targetSha,
      });
    },

    /** The `merge_request.version_recorded` reaction: the creation job, in the version's transaction. */
    async onVersionRecorded(event: DomainEvent<'merge_request.version_recorded'>, tx: Queryable): Promise<void> {
      const { mergeRequestId, versionId, userId } = event.payload;
      await deps.queue.enqueue(CREATE_FOR_MERGE_REQUEST_JOB, { mergeRequestId, versionId, userId: userId ?? null }, { tx });
    },

    /** The creation job: as the user who pushed or opened (else the author), for the latest version only. */
    async runCreateForMergeRequest(payload: JobPayloadMap[typeof CREATE_FOR_MERGE_REQUEST_JOB]): Promise<PipelineRow | null> {
      const mergeRequest = await deps.mergeRequests.findById(payload.mergeRequestId);
      // A newer version has its own job; a closed or merged request runs nothing.
      if (!mergeRequest || mergeRequest.state !== 'opened' || mergeRequest.latest_diff_id !== payload.versionId) return null;
      const target = await deps.projectRows.findById(mergeRequest.target_project_id);
      if (!target || target.archived) return null;
      const userId = payload.userId ?? mergeRequest.author_id;
      const user = userId === null ? undefined : await deps.users.findById(userId);
      const outcome = await create(user && user.state === 'active' ? actorFor(user, 'session') : ANONYMOUS, mergeRequest, target, { allowDuplicate: false });
      return outcome && 'pipeline' in outcome ? outcome.pipeline : null;
    },

    /**
     * POST /projects/:id/merge_requests/:iid/pipelines: a new merge request pipeline now (a
     * duplicate is allowed). 403 when the caller may not run a pipeline where it would run;
     * 405 when the merge request has nothing to run (GitLab's not_allowed!); 400 with GitLab's
     * `{"message": {"base": [...]}}` when the configuration gives no pipeline.
     */
    async createForApi(actor: Actor, opened: { project: Project; mergeRequest: MergeRequest }): Promise<{ pipeline: PipelineRow; project: Project }> {
      const { project: target, mergeRequest } = opened;
      if (!actor.user) throw new ForbiddenError();
      if (mergeRequest.source_project_id === null) throw new MethodNotAllowedError();
      const source = mergeRequest.source_project_id === target.id ? target : await deps.projectRows.findById(mergeRequest.source_project_id);
      if (!source) throw new MethodNotAllowedError();
      const inTarget = await mayRunInTarget(actor, mergeRequest, target);
      if (!inTarget && (await deps.rules.refusalToCreate(actor, source, mergeRequest.source_branch, false)) !== null) throw new ForbiddenError();
      const outcome = await create(actor, mergeRequest, target, { allowDuplicate: true });
      if (!outcome) throw new MethodNotAllowedError();
      if ('error' in outcome) throw new ValidationError({ base: outcome.error });
      return { pipeline: outcome.pipeline, project: outcome.pipeline.project_id === target.id ? target : source };
    },

    /** Each merge request's pipeline (GitLab's head_pipeline for the diff head), in one query. */
    headPipelines: (mergeRequests: readonly MergeRequest[]) => deps.pipelines.headPipelines(mergeRequests),

    /**
     * The merge request's pipeline with the project it ran in (a fork's pipeline runs in the
     * fork), when the caller may read that project's pipelines (GitLab exposes head_pipeline only
     * then); null otherwise.
     */
    async headPipelineFor(actor: Actor, opened: { project: Project; mergeRequest: MergeRequest }): Promise<{ pipeline: PipelineRow; project: Project } | null> {
      const pipeline = (await deps.pipelines.headPipelines([opened.mergeRequest])).get(opened.mergeRequest.id);
      if (!pipeline) return null;
      const project = pipeline.project_id === opened.project.id ? opened.project : await deps.projectRows.findById(pipeline.project_id);
      if (!project || !(await deps.authorizer.can(actor, 'read_pipeline', { project }))) return null;
      return { pipeline, project };
    },

    /** GET …/merge_requests/:iid/pipelines: merge request pipelines first, then the source branch's for the request's commits. */
    async list(opened: { project: Project; mergeRequest: MergeRequest }, page: { limit: number; offset: number }) {
      const { versionHeads } = await deps.mergeRequests.ciMetadata(opened.mergeRequest.id);
      const result = await deps.pipelines.forMergeRequest(opened.mergeRequest, versionHeads, page);
      // A fork's pipelines ran in the fork: each is shown with the project it belongs to.
      const projects = new Map<number, Project>([[opened.project.id, opened.project]]);
      for (const id of new Set(result.pipelines.map((pipeline) => pipeline.project_id))) {
        const project = projects.has(id) ? undefined : await deps.projectRows.findById(id);
        if (project) projects.set(id, project);
      }
      return { ...result, projects };
    },
  };
}

export type MergeRequestPipelines = ReturnType<typeof createMergeRequestPipelines>;
