import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import type { CodeOwnersView } from '../../domains/code-owners/index.js';
import { ValidationError } from '../../platform/errors.js';
import type { UrlBuilder } from '../rest/entities/users.js';
import { projectPathRoute } from './project-path-routes.js';

/**
 * `GET /<project>/-/code_owners?ref=&path=`: the owners of a file at a ref, and the CODEOWNERS
 * file's syntax errors when `path` is that file, for the blob page. A web route rather than
 * GitLab's GraphQL `repository.blobs { codeOwners }`: Tributary's schema has no blob type, and
 * the page needs this one answer. Anyone who may read the code may ask; others get a 404.
 */
export function codeOwnersRoutes(app: FastifyInstance, deps: { authenticate(request: FastifyRequest): Promise<Actor>; codeOwners: Pick<CodeOwnersView, 'ofFile'>; urls: UrlBuilder }): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  projectPathRoute(app, '/-/code_owners', async (request, reply, fullPath) => {
    const query = request.query as Record<string, unknown>;
    const path = typeof query.path === 'string' ? query.path.replace(/^\/+/, '') : '';
    const ref = typeof query.ref === 'string' && query.ref !== '' ? query.ref : undefined;
    if (path === '' || path.length > 4096) throw ValidationError.missing('path');
    const answer = await deps.codeOwners.ofFile(request.actor, fullPath, ref, path);
    reply.header('cache-control', 'no-cache');
    return {
      codeowners_path: answer.codeownersPath,
      code_owners: [
        ...answer.users.map((user) => ({ type: 'user', id: user.id, username: user.username, name: user.name, web_url: deps.urls.web(user.username) })),
        ...answer.groups.map((group) => ({ type: 'group', id: group.id, full_path: group.full_path, name: group.name, web_url: deps.urls.web(`groups/${group.full_path}`) })),
      ],
      errors: answer.errors,
    };
  });
}
