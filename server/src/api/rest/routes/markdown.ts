import type { FastifyInstance } from 'fastify';
import { input, type RestContext } from '../context.js';
import { ValidationError } from '../../../platform/errors.js';
import { optionalBool, optionalString, requiredString } from '../params.js';
import { MAX_MARKDOWN_BYTES } from '../../../markdown/markdown.service.js';

/**
 * POST /markdown (GitLab's): renders a document for the caller. With `gfm` and a
 * `project`, references resolve in that project and link only what the caller may see;
 * a project the caller cannot see is 404, as everywhere.
 */
export function markdownRoutes(app: FastifyInstance, ctx: RestContext): void {
  app.post('/markdown', async (request, reply) => {
    const params = input(request);
    const text = requiredString(params, 'text');
    if (Buffer.byteLength(text) > MAX_MARKDOWN_BYTES) throw ValidationError.field('text', 'is too long');
    const gfm = optionalBool(params, 'gfm') ?? false;
    const projectPath = optionalString(params, 'project');
    const project = gfm && projectPath ? await ctx.services.projects.find(request.actor, projectPath) : null;
    const html = await ctx.services.markdown.render(request.actor, text, { project, references: gfm });
    return reply.status(201).send({ html });
  });
}
