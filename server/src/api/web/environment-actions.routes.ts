import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import type { EnvironmentsService } from '../../domains/environments/environments.service.js';
import type { MergeRequestEnvironments } from '../../domains/environments/merge-request-environments.js';
import type { MergeRequestsService } from '../../domains/merge-requests/merge-requests.service.js';
import type { PipelinesService } from '../../domains/pipelines/pipelines.service.js';
import { NotFoundError } from '../../platform/errors.js';
import { environmentStatusEntity } from '../rest/entities/environments.js';
import { projectPathRoute } from './project-path-routes.js';

/** A path id: digits only (anything else is a page that does not exist). */
const idParam = (text: string | undefined) => (/^\d{1,15}$/.test(text ?? '') && Number(text) > 0 ? Number(text) : null);

/**
 * The merge widget's deployments, GitLab's web routes:
 *
 *   GET  /:project/-/merge_requests/:iid/ci_environments_status[.json]?environment_target=merge_commit
 *   POST /:project/-/environments/:id/stop      (answers { redirect_url })
 *   POST /:project/-/jobs/:id/play, …/retry     (the deployment's job)
 *   POST /:project/-/jobs/:id/unschedule        (a delayed job back to manual: the graph's action;
 *                                                422 when the job is not scheduled)
 *
 * Same authentication as the API (a cookie session needs its CSRF token on POST) and the same
 * services and permission checks as the REST calls; what the caller may not see is a 404.
 * Before the merge the list is of the request's head commit; with `environment_target=merge_commit`
 * it is of its merge commit (empty until merged).
 */
export function environmentActionRoutes(
  app: FastifyInstance,
  deps: {
    authenticate(request: FastifyRequest): Promise<Actor>;
    mergeRequests: Pick<MergeRequestsService, 'open'>;
    mergeRequestEnvironments: MergeRequestEnvironments;
    environments: Pick<EnvironmentsService, 'stopOne'>;
    pipelines: Pick<PipelinesService, 'playJob' | 'retryJob' | 'unscheduleJob'>;
  },
): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  const status = async (request: FastifyRequest, fullPath: string, params: Record<string, string>) => {
    const iid = idParam(params.iid);
    if (iid === null) throw new NotFoundError();
    const { mergeRequest } = await deps.mergeRequests.open(request.actor, fullPath, iid);
    const target = (request.query as Record<string, unknown>).environment_target === 'merge_commit' ? 'merge_commit' : 'head';
    return (await deps.mergeRequestEnvironments.list(request.actor, mergeRequest, target)).map(environmentStatusEntity);
  };
  projectPathRoute(app, '/-/merge_requests/:iid/ci_environments_status', (request, _reply, fullPath, params) => status(request, fullPath, params));
  projectPathRoute(app, '/-/merge_requests/:iid/ci_environments_status.json', (request, _reply, fullPath, params) => status(request, fullPath, params));

  projectPathRoute(
    app,
    '/-/environments/:environment_id/stop',
    async (request, _reply, fullPath, params) => {
      const id = idParam(params.environment_id);
      if (id === null) throw new NotFoundError();
      const { project, environment } = await deps.environments.stopOne(request.actor, fullPath, id, false);
      return { redirect_url: `/${project.full_path}/-/environments/${environment.id}` };
    },
    'POST',
  );

  for (const action of ['play', 'retry', 'unschedule'] as const) {
    projectPathRoute(
      app,
      `/-/jobs/:job_id/${action}`,
      async (request, _reply, fullPath, params) => {
        const id = idParam(params.job_id);
        if (id === null) throw new NotFoundError();
        if (action === 'play') await deps.pipelines.playJob(request.actor, fullPath, id, undefined);
        else if (action === 'retry') await deps.pipelines.retryJob(request.actor, fullPath, id);
        else await deps.pipelines.unscheduleJob(request.actor, fullPath, id);
        return {};
      },
      'POST',
    );
  }
}
