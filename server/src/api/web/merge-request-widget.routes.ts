import type { FastifyInstance, FastifyRequest } from 'fastify';
import { POLL_INTERVAL_HEADER, WIDGET_POLLING } from '@tributary/contracts';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import { NotFoundError } from '../../platform/errors.js';
import type { UrlBuilder } from '../rest/entities/users.js';
import { createRequestScope, type WidgetDeps } from '../graphql/widget/request-scope.js';
import { widgetPayload } from '../graphql/widget/widget-payload.js';
import { projectPathRoute } from './project-path-routes.js';

/** GitLab's widget action: `Gitlab::PollingInterval.set_header(response, interval: 10_000)`. */
const WIDGET_POLL_INTERVAL_MS = WIDGET_POLLING.defaultIntervalMs;

/**
 * GitLab's widget endpoint, `GET /:full_path/-/merge_requests/:iid/widget.json`: the widget
 * data with a `Poll-Interval` header (milliseconds). The web app polls it when its
 * subscription's WebSocket is down. Same authentication and permission path as the API;
 * a project or merge request the caller may not see is a 404 like one that does not exist.
 */
export function mergeRequestWidgetRoutes(app: FastifyInstance, deps: { authenticate(request: FastifyRequest): Promise<Actor>; widgets: WidgetDeps; urls: UrlBuilder }): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  projectPathRoute(app, '/-/merge_requests/:iid/widget.json', async (request, reply, fullPath, params) => {
    const iid = /^\d{1,9}$/.test(params.iid ?? '') ? Number(params.iid) : 0;
    const scope = createRequestScope(deps.widgets, request.actor);
    const project = iid > 0 ? await scope.project(fullPath) : null;
    const node = project ? await scope.mergeRequest(project, iid) : null;
    if (!node) throw new NotFoundError();
    reply.header(POLL_INTERVAL_HEADER, String(WIDGET_POLL_INTERVAL_MS)).header('cache-control', 'no-cache');
    return widgetPayload(scope, node, deps.urls);
  });
}
