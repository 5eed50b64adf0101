/**
 * What one GraphQL request reads of pipelines and jobs, batched and memoised (DataLoader), so a
 * pipeline graph of any size costs a fixed number of queries: stages and jobs per pipeline,
 * pipelines by id, allowed-failure warnings, bridges' downstream pipelines. Access is the
 * pipelines service's own rule (read_pipeline, with GitLab's public_builds), asked once per
 * project; acting on a job or pipeline is update_pipeline plus GitLab's can_update_branch? on
 * its ref, asked once per ref.
 */
import DataLoader from 'dataloader';
import type { Actor } from '../../../auth/actor.js';
import type { Project } from '../../../domains/projects/project.js';
import type { JobRow, PipelineRow, StageRow } from '../../../domains/pipelines/pipeline.js';
import type { PipelinesRepository } from '../../../domains/pipelines/pipelines.repository.js';
import type { PipelinesService } from '../../../domains/pipelines/pipelines.service.js';
import type { DownstreamRepository } from '../../../domains/pipelines/downstream/downstream.repository.js';
import type { RequestScope } from '../widget/request-scope.js';
import type { JobArtifacts } from '../../../domains/runner-protocol/job-artifacts.service.js';
import type { JobArtifactRow } from '../../../domains/runner-protocol/job-artifacts.repository.js';
import type { RunnerProtocol } from '../../../domains/runner-protocol/runner-protocol.service.js';

export interface CiGraphqlDeps {
  pipelines: Pick<PipelinesService, 'readableProject' | 'mayUpdateRef' | 'manualVariables' | 'retryJob' | 'playJob' | 'cancelJob' | 'unscheduleJob' | 'retry' | 'cancel' | 'remove'>;
  pipelinesRepository: Pick<PipelinesRepository, 'pipelineById' | 'findJob' | 'pipelinesByIds' | 'withWarnings' | 'stagesOfPipelines' | 'latestJobsOfPipelines' | 'listPipelines' | 'findPipelineBy'>;
  downstream: Pick<DownstreamRepository, 'downstreamOfBridges' | 'upstreamOf' | 'downstreamOf'>;
  /** a job's artifacts (CiJob.artifacts) */
  artifacts: Pick<JobArtifacts, 'describe'>;
  /** a job's log, its secrets masked (CiJob.trace) */
  logs: Pick<RunnerProtocol, 'readLog' | 'logSize'>;
}

/** A pipeline as the schema's resolvers receive it: the row and the project it is read through. */
export interface PipelineNode {
  pipeline: PipelineRow;
  project: Project;
  /** the merge widget's pipelines come with their stages and warnings already read */
  stages?: StageRow[];
  warnings?: boolean;
}

export interface JobNode {
  job: JobRow;
  project: Project;
}

function grouped<T>(rows: readonly T[], key: (row: T) => number, ids: readonly number[]): T[][] {
  const by = new Map<number, T[]>(ids.map((id) => [id, []]));
  for (const row of rows) by.get(key(row))?.push(row);
  return ids.map((id) => by.get(id) ?? []);
}

export function createCiScope(deps: CiGraphqlDeps, scope: Pick<RequestScope, 'actor' | 'abilities'>) {
  const actor: Actor = scope.actor;
  const readable = new Map<number, Promise<Project | null>>();
  const refs = new Map<string, Promise<boolean>>();
  const stages = new DataLoader<number, StageRow[]>(async (ids) => grouped(await deps.pipelinesRepository.stagesOfPipelines(ids), (row) => row.pipeline_id, ids));
  const jobs = new DataLoader<number, JobRow[]>(async (ids) => grouped(await deps.pipelinesRepository.latestJobsOfPipelines(ids), (row) => row.pipeline_id, ids));
  const pipelines = new DataLoader<number, PipelineRow | null>(async (ids) => {
    const found = await deps.pipelinesRepository.pipelinesByIds(ids);
    return ids.map((id) => found.get(id) ?? null);
  });
  const warnings = new DataLoader<number, boolean>(async (ids) => {
    const found = await deps.pipelinesRepository.withWarnings(ids);
    return ids.map((id) => found.has(id));
  });
  const artifacts = new DataLoader<number, JobArtifactRow[]>(async (ids) => {
    const found = await deps.artifacts.describe(ids);
    return ids.map((id) => found.get(id) ?? []);
  });
  const downstreamOfBridge = new DataLoader<number, PipelineRow | null>(async (ids) => {
    const found = await deps.downstream.downstreamOfBridges(ids);
    return ids.map((id) => found.get(id) ?? null);
  });

  /** The project when the caller may read its pipelines and jobs, else null. */
  function project(projectId: number): Promise<Project | null> {
    let found = readable.get(projectId);
    if (!found) readable.set(projectId, (found = deps.pipelines.readableProject(actor, projectId)));
    return found;
  }

  return {
    actor,
    project,
    stages,
    jobs,
    warnings,
    artifacts,
    downstreamOfBridge,
    /** A pipeline by id as a node, when the caller may read it. */
    async pipeline(id: number): Promise<PipelineNode | null> {
      const row = await pipelines.load(id);
      const owner = row ? await project(row.project_id) : null;
      return row && owner ? { pipeline: row, project: owner } : null;
    },
    /** May the caller retry, play or cancel what runs on the pipeline's ref (update_pipeline and the ref's protection)? */
    canUpdate(node: { pipeline: PipelineRow; project: Project }): Promise<boolean> {
      const key = `${node.project.id}:${node.pipeline.tag}:${node.pipeline.ref}`;
      let found = refs.get(key);
      if (!found) {
        found = scope.abilities(node.project).then((abilities) => abilities.has('update_pipeline') && deps.pipelines.mayUpdateRef(actor, node.project, node.pipeline.ref, node.pipeline.tag));
        refs.set(key, found);
      }
      return found;
    },
  };
}

export type CiScope = ReturnType<typeof createCiScope>;

/** GitLab's job group name (Ci::Group): parallel jobs `rspec 1/3` and matrix jobs `rspec: [a, b]` form the group `rspec`. */
export function jobGroupName(name: string): string {
  return name.replace(/([\b\s:]+((\[.*\])|(\d+[\s:/\\]+\d+))){1,3}\s*$/, '').trim();
}
