import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import { servingHeaders } from '../../domains/uploads/upload-rules.js';
import type { UploadsService } from '../../domains/uploads/uploads.service.js';
import { projectPathRoute } from './project-path-routes.js';


/**
 * The files notes and descriptions link to: `/:full_path/uploads/:secret/:filename` (what the
 * markdown renderer writes) and `/-/project/:id/uploads/:secret/:filename` (the API's
 * full_path). The caller must read the project; anything else is a 404. Images and videos are
 * shown inline, everything else (SVG included) downloads, always with nosniff.
 */
export function uploadFileRoutes(app: FastifyInstance, deps: { authenticate(request: FastifyRequest): Promise<Actor>; uploads: UploadsService }): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    // a token reads files only with a scope that reads the API (the session has every scope)
    assertApiScope(request.actor, request.method);
  });

  async function send(reply: FastifyReply, actor: Actor, idOrPath: string, params: Record<string, string>) {
    const { upload, path } = await deps.uploads.open(actor, idOrPath, params.secret ?? '', params.filename ?? '');
    reply.headers({ ...servingHeaders(upload.filename), 'content-length': String(upload.size) });
    return reply.send(createReadStream(path));
  }

  app.get('/-/project/:id/uploads/:secret/:filename', async (request, reply) => {
    const params = request.params as Record<string, string>;
    return send(reply, request.actor, /^\d{1,18}$/.test(params.id ?? '') ? params.id! : '0', params);
  });

  projectPathRoute(app, '/uploads/:secret/:filename', (request, reply, fullPath, params) => send(reply, request.actor, fullPath, params));
}
