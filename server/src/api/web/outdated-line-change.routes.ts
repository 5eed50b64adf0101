import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import type { OutdatedDiscussions } from '../../domains/notes/outdated-discussions.service.js';
import { NotFoundError } from '../../platform/errors.js';
import { projectPathRoute } from './project-path-routes.js';


/**
 * GitLab's `GET /:full_path/notes/:id/outdated_line_change` (a note's `outdated_line_change_path`,
 * web only): the lines of the change that made a diff thread outdated, each
 * `{line_code, type, old_line, new_line, text, rich_text}`. Same authentication and
 * permission path as the API; a note the caller may not read is a 404.
 */
export function outdatedLineChangeRoutes(app: FastifyInstance, deps: { authenticate(request: FastifyRequest): Promise<Actor>; outdated: Pick<OutdatedDiscussions, 'lineChange'> }): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  projectPathRoute(app, '/notes/:note_id/outdated_line_change', async (request, reply, fullPath, params) => {
    const noteId = /^\d{1,15}$/.test(params.note_id ?? '') ? Number(params.note_id) : 0;
    if (noteId === 0) throw new NotFoundError('Note');
    reply.header('cache-control', 'no-cache');
    return deps.outdated.lineChange(request.actor, fullPath, noteId);
  });
}
