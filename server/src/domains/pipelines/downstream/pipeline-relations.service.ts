/**
 * A pipeline's upstream pipeline (the one whose trigger job created it) and its downstream
 * pipelines (the ones its trigger jobs created), as the pipeline page's graph shows them. A
 * pipeline of a project the viewer may not read the pipelines of is left out, as GitLab leaves
 * it out; the pipeline asked for itself needs read_pipeline (404 for a project the caller cannot see).
 */
import type { Actor } from '../../../auth/actor.js';
import type { Authorizer } from '../../../auth/authorizer.js';
import { NotFoundError } from '../../../platform/errors.js';
import type { Project } from '../../projects/project.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import type { ProjectsService } from '../../projects/projects.service.js';
import type { PipelineRow } from '../pipeline.js';
import type { PipelinesRepository } from '../pipelines.repository.js';
import type { DownstreamRepository } from './downstream.repository.js';

export interface RelatedPipeline {
  pipeline: PipelineRow;
  project: Project;
  /** the trigger job that created the downstream pipeline of the pair */
  sourceJobName: string | null;
  /** a job failed but was allowed to (GitLab's "warning") */
  warnings: boolean;
}

export function createPipelineRelations(deps: {
  projects: Pick<ProjectsService, 'find'>;
  projectRows: Pick<ProjectsRepository, 'findById'>;
  authorizer: Pick<Authorizer, 'authorize' | 'can'>;
  pipelines: Pick<PipelinesRepository, 'findPipeline' | 'findJob' | 'withWarnings'>;
  downstream: Pick<DownstreamRepository, 'upstreamOf' | 'downstreamOf'>;
}) {
  /** The project of `pipeline` when the viewer may read its pipelines, else null. */
  async function readableProject(actor: Actor, pipeline: PipelineRow): Promise<Project | null> {
    try {
      const project = await deps.projects.find(actor, pipeline.project_id);
      return (await deps.authorizer.can(actor, 'read_pipeline', { project })) ? project : null;
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  async function related(actor: Actor, pipeline: PipelineRow, bridgeId: number | null, warnings: Set<number>): Promise<RelatedPipeline | null> {
    const project = await readableProject(actor, pipeline);
    if (!project) return null;
    const bridge = bridgeId === null ? null : await deps.pipelines.findJob(bridgeId);
    return { pipeline, project, sourceJobName: bridge?.name ?? null, warnings: warnings.has(pipeline.id) };
  }

  return {
    async of(actor: Actor, projectIdOrPath: string | number, pipelineId: number) {
      const project = await deps.projects.find(actor, projectIdOrPath);
      await deps.authorizer.authorize(actor, 'read_pipeline', { project });
      const pipeline = await deps.pipelines.findPipeline(project.id, pipelineId);
      if (!pipeline) throw new NotFoundError();
      const up = await deps.downstream.upstreamOf(pipeline.id);
      const downs = await deps.downstream.downstreamOf(pipeline.id);
      const warnings = await deps.pipelines.withWarnings([pipeline.id, ...(up ? [up.pipeline.id] : []), ...downs.map((p) => p.id)]);
      // the bridge that created this pipeline is a job of the upstream one
      const upstream = up ? await related(actor, up.pipeline, up.bridgeId, warnings) : null;
      const downstream = (await Promise.all(downs.map((down) => related(actor, down, down.source_job_id === null ? null : Number(down.source_job_id), warnings)))).filter(
        (item): item is RelatedPipeline => item !== null,
      );
      return { project, pipeline, warnings: warnings.has(pipeline.id), upstream, downstream };
    },
  };
}

export type PipelineRelations = ReturnType<typeof createPipelineRelations>;
