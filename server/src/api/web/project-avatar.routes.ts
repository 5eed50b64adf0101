import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import type { ProjectAvatarService } from '../../domains/projects/project-avatar.service.js';

/** The avatar URL GitLab's project entity gives: `/uploads/-/system/project/avatar/:id/:filename`. */
export const projectAvatarPath = (projectId: number, filename: string) => `uploads/-/system/project/avatar/${projectId}/${encodeURIComponent(filename)}`;

/** Serves project avatars to those who may read the project (others: 404), as images that run nothing. */
export function projectAvatarRoutes(app: FastifyInstance, deps: { authenticate(request: FastifyRequest): Promise<Actor>; avatars: ProjectAvatarService }): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  app.get('/uploads/-/system/project/avatar/:id/:filename', async (request, reply) => {
    const params = request.params as { id: string; filename: string };
    const avatar = await deps.avatars.open(request.actor, params.id, params.filename);
    return reply
      .headers({
        'content-type': avatar.contentType,
        'content-length': String(avatar.data.length),
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'cache-control': 'private, max-age=0, must-revalidate',
      })
      .send(avatar.data);
  });
}
