import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import type { UserCallout, UserCallouts } from '../../domains/users/user-callouts.js';

const entity = (callout: UserCallout) => ({ feature_name: callout.feature_name, dismissed_at: new Date(callout.dismissed_at).toISOString() });

/**
 * GitLab's `POST /-/users/callouts` (`feature_name`, as JSON or a form): the signed-in user
 * dismisses a hint; and `GET /-/users/callouts`, the hints they dismissed, which the web app
 * reads before showing one. A cookie session needs its CSRF token to dismiss; anonymous callers
 * get a 401.
 */
export function userCalloutRoutes(app: FastifyInstance, deps: { authenticate(request: FastifyRequest): Promise<Actor>; callouts: UserCallouts }): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  app.get('/-/users/callouts', async (request) => ({ callouts: (await deps.callouts.list(request.actor)).map(entity) }));

  app.post('/-/users/callouts', async (request) => {
    const body = request.body as Record<string, unknown> | undefined;
    return entity(await deps.callouts.dismiss(request.actor, body?.feature_name));
  });
}
