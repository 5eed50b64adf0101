/**
 * Trigger jobs (bridges) and their downstream pipelines, as GitLab's
 * Ci::CreateDownstreamPipelineService and Ci::PipelineBridgeStatusService do it.
 *
 * A bridge that becomes pending enqueues `createDownstream` in the same transaction. It checks, as
 * the bridge's user (who ran the upstream pipeline), what GitLab checks — the downstream project
 * is visible, a child stays within two levels, the tree within 1000 pipelines, the user may update
 * the upstream pipeline and create one on the downstream ref, no loop — and fails the bridge with
 * GitLab's failure reason at the first refusal. Otherwise the bridge runs, the pipeline is created
 * (a child: the parent's project, ref and commit, source `parent_pipeline`, configuration the
 * trigger's `include:`; another project: its `branch` or default branch, source `pipeline`) with the
 * variables the bridge passes down, linked to the bridge in its own transaction, and the bridge
 * succeeds — or, with `strategy`, follows the downstream pipeline's status until it completes.
 */
import { actorFor, ANONYMOUS, type Actor } from '../../../auth/actor.js';
import type { Authorizer } from '../../../auth/authorizer.js';
import { NotFoundError } from '../../../platform/errors.js';
import type { Project } from '../../projects/project.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import type { ProjectsService } from '../../projects/projects.service.js';
import type { UsersRepository } from '../../users/users.repository.js';
import { predefinedVariables } from '../config/predefined-variables.js';
import type { ReadArtifactFile } from '../config/types.js';
import { stringify as stringifyYaml } from 'yaml';
import { resolveCommit } from '../../../git/refs.js';
import { isCompleted } from '../engine/status.js';
import type { JobRow, PipelineRow } from '../pipeline.js';
import type { PipelineCreation } from '../pipeline-creation.service.js';
import type { PipelineEngine } from '../pipeline-engine.service.js';
import type { PipelinesRepository } from '../pipelines.repository.js';
import type { PipelinesService } from '../pipelines.service.js';
import type { DownstreamRepository } from './downstream.repository.js';
import { bridgeStatusFromDownstream, downstreamSource, downstreamVariables, preconditionFailure, triggerOf, triggersChild, type Trigger } from './downstream-rules.js';

/** GitLab's default `max_artifacts_content_include_size`: the most a child's artifact include may be. */
export const MAX_ARTIFACT_INCLUDE_BYTES = 5 * 1024 * 1024;

/** One file of a job's artifacts archive, or null when the job has none (filled by the runner protocol domain). */
export type ArtifactFileOf = (jobId: number, path: string, maxBytes: number) => Promise<{ found: true; data: Buffer } | { found: false; reason: string } | null>;

export function createDownstreamPipelines(deps: {
  pipelines: PipelinesRepository;
  downstream: DownstreamRepository;
  engine: Pick<PipelineEngine, 'runBridge' | 'settleBridge'>;
  creation: Pick<PipelineCreation, 'createDownstream'>;
  projects: Pick<ProjectsService, 'find'>;
  projectRows: Pick<ProjectsRepository, 'findById'>;
  users: Pick<UsersRepository, 'findById'>;
  authorizer: Pick<Authorizer, 'can'>;
  rules: Pick<PipelinesService, 'refusalToCreate'>;
  serverUrl: string;
  repoPath: (projectId: number) => string;
  /** late-bound: the artifacts live in the runner protocol domain, built after this one */
  artifactFileOf: () => ArtifactFileOf | undefined;
}) {
  async function actorOf(bridge: JobRow): Promise<Actor> {
    const user = bridge.user_id === null ? undefined : await deps.users.findById(bridge.user_id);
    return user ? actorFor(user, 'session') : ANONYMOUS;
  }

  /** What the bridge's variables expand with: the predefined ones, the pipeline's, then its own yaml variables. */
  async function expansionFor(bridge: JobRow, pipeline: PipelineRow, project: Project): Promise<Record<string, string>> {
    const namespacePath = project.full_path.slice(0, project.full_path.lastIndexOf('/'));
    const predefined = predefinedVariables({
      serverUrl: deps.serverUrl,
      project: { id: project.id, name: project.name, path: project.path, fullPath: project.full_path, namespacePath, defaultBranch: project.default_branch, visibility: project.visibility },
      source: pipeline.source,
      ref: pipeline.ref,
      tag: pipeline.tag,
      sha: pipeline.sha,
      beforeSha: pipeline.before_sha,
    });
    const pipelineVariables = await deps.pipelines.variables(pipeline.id);
    return {
      ...predefined,
      CI_JOB_NAME: bridge.name,
      CI_JOB_STAGE: bridge.stage,
      CI_PIPELINE_ID: String(pipeline.id),
      CI_PIPELINE_IID: String(pipeline.iid),
      ...Object.fromEntries(bridge.yaml_variables.map((v) => [v.key, v.value])),
      ...Object.fromEntries(pipelineVariables.map((v) => [v.key, v.value])),
    };
  }

  /** The parent's artifacts for `include: artifact` (GitLab's find_job_with_archive_artifacts: the latest job of that name with an archive). */
  function artifactReader(parent: PipelineRow): ReadArtifactFile {
    return async ({ job, path }) => {
      const reader = deps.artifactFileOf();
      const candidate = (await deps.pipelines.latestJobs(parent.id)).find((row) => row.name === job && row.type === 'build');
      const entry = candidate && reader ? await reader(candidate.id, path, MAX_ARTIFACT_INCLUDE_BYTES) : null;
      if (!entry) return { error: 'job_not_found' };
      if (entry.found) return { content: entry.data.toString('utf8') };
      return { error: entry.reason === 'too_large' ? 'too_large' : 'file_not_found' };
    };
  }

  /** The downstream project as the user sees it: null when it does not exist or is hidden from them. */
  async function visibleProject(actor: Actor, path: string): Promise<Project | null> {
    try {
      return await deps.projects.find(actor, path);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  /** After creation: a bridge without strategy succeeds; one with strategy follows a downstream pipeline that already completed. */
  async function settleAfterCreation(bridge: JobRow, trigger: Trigger, downstream: PipelineRow): Promise<void> {
    if (downstream.failure_reason) {
      await deps.engine.settleBridge(bridge.id, 'failed', 'downstream_pipeline_creation_failed');
      return;
    }
    if (!trigger.strategy) {
      await deps.engine.settleBridge(bridge.id, 'success');
      return;
    }
    const follows = bridgeStatusFromDownstream(trigger.strategy, downstream.status);
    if (follows) await deps.engine.settleBridge(bridge.id, follows);
  }

  return {
    /** The queue job of a bridge that became pending: its downstream pipeline, or its failure. */
    async createDownstream(bridgeId: number): Promise<PipelineRow | null> {
      const bridge = await deps.pipelines.findJob(bridgeId);
      if (!bridge || bridge.type !== 'bridge') return null;
      const pipeline = (await deps.pipelines.pipelineById(bridge.pipeline_id))!;
      const project = await deps.projectRows.findById(pipeline.project_id);
      if (!project) return null;
      const expansion = await expansionFor(bridge, pipeline, project);
      const trigger = triggerOf(bridge.options, expansion);
      if (!trigger) return null;

      // The queue runs a job at least once: a pipeline stored by an earlier run is not created twice.
      const existing = await deps.downstream.downstreamOfBridge(bridge.id);
      if (existing) {
        if (!isCompleted(bridge.status)) await settleAfterCreation(bridge, trigger, existing);
        return existing;
      }
      if (bridge.status !== 'pending') return null;

      const actor = await actorOf(bridge);
      const child = triggersChild(trigger);
      const target = child ? project : trigger.project ? await visibleProject(actor, trigger.project) : null;
      const ref = child ? pipeline.ref : (trigger.branch ?? target?.default_branch ?? '');
      const tag = child ? pipeline.tag : false;
      const chain = await deps.downstream.selfAndUpstreams(pipeline.id);
      // the pipeline and the parents it is a child of (GitLab's self_and_project_ancestors)
      let projectAncestors = 1;
      while (projectAncestors < chain.length && chain[projectAncestors - 1]!.source === 'parent_pipeline') projectAncestors++;
      const mayCreate =
        target !== null &&
        (await deps.authorizer.can(actor, 'update_pipeline', { project })) &&
        (await deps.rules.refusalToCreate(actor, target, ref, child ? tag : await isTagOnly(target, ref))) === null;
      const failure = preconditionFailure({
        trigger,
        downstreamVisible: target !== null,
        sameProject: target?.id === project.id,
        selfAndProjectAncestors: projectAncestors,
        hierarchySize: await deps.downstream.hierarchySize(chain[chain.length - 1]!.id),
        mayCreate,
        selfAndUpstreams: chain.map((link) => ({ projectId: link.project_id, ref: link.ref, source: link.source })),
      });
      if (failure) {
        await deps.engine.settleBridge(bridge.id, 'failed', failure);
        return null;
      }
      if (!(await deps.engine.runBridge(bridge.id))) return null;

      try {
        return await createFor(bridge, pipeline, project, target!, trigger, { ref, tag, child, actor, expansion });
      } catch (error) {
        // as GitLab: a bridge whose creation broke is failed (data_integrity_failure), never left running
        await deps.engine.settleBridge(bridge.id, 'failed', 'data_integrity_failure');
        throw error;
      }
    },

    /** The queue job of a triggered pipeline whose status changed: its bridge with `strategy` follows it. */
    async updateBridgeStatus(pipelineId: number): Promise<void> {
      const upstream = await deps.downstream.upstreamOf(pipelineId);
      if (!upstream || upstream.bridgeId === null) return;
      const bridge = await deps.pipelines.findJob(upstream.bridgeId);
      const downstream = await deps.pipelines.pipelineById(pipelineId);
      // a completed bridge follows too: a retried downstream pipeline that passes turns a failed bridge to success
      if (!bridge || !downstream || bridge.retried) return;
      const strategy = triggerOf(bridge.options, {})?.strategy;
      const follows = bridgeStatusFromDownstream(strategy, downstream.status);
      if (follows) await deps.engine.settleBridge(bridge.id, follows);
    },
  };

  /** Creates the downstream pipeline of a running bridge, linked to it, and settles the bridge. */
  async function createFor(
    bridge: JobRow,
    pipeline: PipelineRow,
    project: Project,
    target: Project,
    trigger: Trigger,
    at: { ref: string; tag: boolean; child: boolean; actor: Actor; expansion: Record<string, string> },
  ): Promise<PipelineRow | null> {
    const { ref, tag, child, actor, expansion } = at;
    const variables = downstreamVariables({
      forward: trigger.forward,
      yamlVariables: bridge.yaml_variables,
      pipelineVariables: await deps.pipelines.variables(pipeline.id),
      scheduleVariables: [],
      expansion,
    }).map((v) => ({ ...v, variable_type: 'env_var' as const }));
    const outcome = await deps.creation.createDownstream({
      project: target!,
      ref,
      tag: child ? tag : undefined,
      source: downstreamSource(trigger),
      actor,
      variables,
      ...(child ? { sha: pipeline.sha, beforeSha: pipeline.before_sha, configContent: stringifyYaml({ include: trigger.include }), readArtifact: artifactReader(pipeline) } : {}),
      upstream: { sourcePipelineId: pipeline.id, sourceProjectId: project.id, sourceJobId: bridge.id },
    });
    if ('error' in outcome) {
      await deps.engine.settleBridge(bridge.id, 'failed', 'downstream_pipeline_creation_failed');
      return null;
    }
    const running = (await deps.pipelines.findJob(bridge.id))!;
    await settleAfterCreation(running, trigger, outcome.pipeline);
    return outcome.pipeline;
  }
  /** A downstream `branch:` names a branch first, then a tag (GitLab's ref resolution). */
  async function isTagOnly(project: Project, ref: string): Promise<boolean> {
    const path = deps.repoPath(project.id);
    return (await resolveCommit(path, `refs/heads/${ref}`)) === null && (await resolveCommit(path, `refs/tags/${ref}`)) !== null;
  }
}

export type DownstreamPipelines = ReturnType<typeof createDownstreamPipelines>;
