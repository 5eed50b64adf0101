import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import type { createNoteAuthorRolesService } from '../../domains/notes/note-author-roles.service.js';
import { NotFoundError } from '../../platform/errors.js';

/**
 * `GET /-/projects/:id/merge_requests/:iid/note_author_roles`: the web app's role badges
 * (Author comes from the merge request; this gives access levels and Contributor), keyed by
 * user id. Web-only: GitLab's REST note entity has no such fields. Anonymous callers may read
 * a public project's; what the caller may not see is a 404.
 */
export function noteAuthorRolesRoutes(
  app: FastifyInstance,
  deps: { authenticate(request: FastifyRequest): Promise<Actor>; roles: ReturnType<typeof createNoteAuthorRolesService> },
): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  app.get('/-/projects/:id/merge_requests/:iid/note_author_roles', async (request) => {
    const params = request.params as { id: string; iid: string };
    const iid = /^\d{1,9}$/.test(params.iid) ? Number(params.iid) : 0;
    if (iid === 0) throw new NotFoundError('Merge Request');
    return deps.roles.forMergeRequest(request.actor, params.id, iid);
  });
}
