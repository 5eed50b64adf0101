import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import { pipelineDetailedStatus } from '../../domains/pipelines/engine/detailed-status.js';
import { isCompleted } from '../../domains/pipelines/engine/status.js';
import type { PipelineRelations, RelatedPipeline } from '../../domains/pipelines/downstream/pipeline-relations.service.js';
import { NotFoundError } from '../../platform/errors.js';
import { projectPathRoute } from './project-path-routes.js';

const pipelinePath = (fullPath: string, id: number) => `/${fullPath}/-/pipelines/${id}`;

/** GitLab's TriggeredPipelineEntity: a pipeline upstream or downstream of the one shown, with its project and trigger job. */
export function triggeredPipelineEntity(related: RelatedPipeline) {
  const { pipeline, project } = related;
  const path = pipelinePath(project.full_path, pipeline.id);
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    active: !isCompleted(pipeline.status),
    coverage: pipeline.coverage === null ? null : pipeline.coverage.toFixed(2),
    source: pipeline.source,
    path,
    details: { status: pipelineDetailedStatus({ status: pipeline.status, warnings: related.warnings }, path) },
    project: { id: project.id, name: project.name, full_path: project.full_path, full_name: project.full_name },
    source_job: related.sourceJobName === null ? null : { name: related.sourceJobName },
  };
}

/**
 * GitLab's pipeline JSON of the pipeline page, `GET /:full_path/-/pipelines/:id.json`, with the
 * fields the graph needs: the pipeline's id, path and status, `triggered_by` (the upstream
 * pipeline) and `triggered` (the downstream ones). Same authentication and permission path as the
 * API: a pipeline the caller may not see is a 404.
 */
export function pipelineDetailsRoutes(app: FastifyInstance, deps: { authenticate(request: FastifyRequest): Promise<Actor>; relations: PipelineRelations }): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  projectPathRoute(app, '/-/pipelines/:pipeline_id.json', async (request, reply, fullPath, params) => {
    const id = /^\d{1,12}$/.test(params.pipeline_id ?? '') ? Number(params.pipeline_id) : 0;
    if (id === 0) throw new NotFoundError();
    const found = await deps.relations.of(request.actor, fullPath, id);
    reply.header('cache-control', 'no-cache');
    const path = pipelinePath(found.project.full_path, found.pipeline.id);
    return {
      id: found.pipeline.id,
      iid: found.pipeline.iid,
      path,
      details: { status: pipelineDetailedStatus({ status: found.pipeline.status, warnings: found.warnings }, path) },
      triggered_by: found.upstream ? triggeredPipelineEntity(found.upstream) : null,
      triggered: found.downstream.map(triggeredPipelineEntity),
    };
  });
}
