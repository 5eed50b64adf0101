import type { FastifyInstance, FastifyRequest } from 'fastify';
import { POLL_INTERVAL_HEADER, WIDGET_POLLING } from '@tributary/contracts';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import { NotFoundError } from '../../platform/errors.js';
import type { UrlBuilder } from '../rest/entities/users.js';
import { createRequestScope, type WidgetDeps } from '../graphql/widget/request-scope.js';
import { widgetPayload } from '../graphql/widget/widget-payload.js';

/** GitLab's widget action: `Gitlab::PollingInterval.set_header(response, interval: 10_000)`. */
export const WIDGET_POLL_INTERVAL_MS = WIDGET_POLLING.defaultIntervalMs;
/** A project path is its namespace (at most 20 nested groups, GitLab's limit) and its own path. */
const MAX_PATH_SEGMENTS = 21;

/**
 * GitLab's widget endpoint, `GET /:full_path/-/merge_requests/:iid/widget.json`: the widget
 * data with a `Poll-Interval` header (milliseconds). The web app polls it when its
 * subscription's WebSocket is down. Same authentication and permission path as the API;
 * a project or merge request the caller may not see is a 404 like one that does not exist.
 *
 * The router cannot put a wildcard before `/-/` (git smart HTTP owns `/*`), so the route is
 * registered once per path depth; each is a plain parametric route and costs nothing per request.
 */
export function mergeRequestWidgetRoutes(app: FastifyInstance, deps: { authenticate(request: FastifyRequest): Promise<Actor>; widgets: WidgetDeps; urls: UrlBuilder }): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  for (let depth = 2; depth <= MAX_PATH_SEGMENTS; depth++) {
    const segments = Array.from({ length: depth }, (_, i) => `:p${i}`);
    app.get(`/${segments.join('/')}/-/merge_requests/:iid/widget.json`, async (request, reply) => {
      const params = request.params as Record<string, string>;
      const fullPath = segments.map((_, i) => params[`p${i}`]).join('/');
      const iid = /^\d{1,9}$/.test(params.iid ?? '') ? Number(params.iid) : 0;
      const scope = createRequestScope(deps.widgets, request.actor);
      const project = iid > 0 ? await scope.project(fullPath) : null;
      const node = project ? await scope.mergeRequest(project, iid) : null;
      if (!node) throw new NotFoundError();
      reply.header(POLL_INTERVAL_HEADER, String(WIDGET_POLL_INTERVAL_MS)).header('cache-control', 'no-cache');
      return widgetPayload(scope, node, deps.urls);
    });
  }
}
