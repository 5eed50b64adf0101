import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../../../../platform/errors.js';
import { signedIn, type RestContext } from '../../context.js';
import { pipelineBasic, pipelineEntity } from '../../entities/pipelines.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { Input, Pagination, routes } from '../../input/route-kit.js';
import { MergeRequestPath } from './input.js';

const base = '/projects/:id/merge_requests/:iid/pipelines';

/**
 * A merge request's pipelines (GitLab's API::MergeRequests): `GET …/pipelines` lists them
 * (PipelineBasic, merge request pipelines first, paginated) for callers who may read the
 * project's pipelines; `POST …/pipelines` creates a merge request pipeline now and answers 200
 * with the Pipeline entity, as GitLab does.
 */
export function mergeRequestPipelineRoutes(app: FastifyInstance, ctx: RestContext<'mergeRequestPipelines' | 'mergeRequests' | 'pipelines'>): void {
  const { mergeRequests, mergeRequestPipelines, pipelines } = ctx.services;
  const r = routes(app);

  r.get(base, Input({ ...MergeRequestPath, ...Pagination }), async (params, request, reply) => {
    const opened = await mergeRequests.open(request.actor, params.id, params.iid);
    if (!opened.abilities.has('read_pipeline')) throw new ForbiddenError();
    const page = parsePage(params);
    const { pipelines: rows, total, projects } = await mergeRequestPipelines.list(opened, page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, total));
    return rows.filter((pipeline) => projects.has(pipeline.project_id)).map((pipeline) => pipelineBasic(pipeline, projects.get(pipeline.project_id)!, ctx.urls));
  });

  r.post(base, Input(MergeRequestPath), async (params, request) => {
    const actor = signedIn(request);
    const opened = await mergeRequests.open(actor, params.id, params.iid);
    const { pipeline, project } = await mergeRequestPipelines.createForApi(actor, opened);
    return pipelineEntity(pipeline, project, ctx.urls, await pipelines.describe([pipeline]));
  });
}
