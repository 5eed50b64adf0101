import type { FastifyInstance } from 'fastify';
import type { RestContext } from '../context.js';
import { ValidationError } from '../../../platform/errors.js';
import { MAX_MARKDOWN_BYTES } from '../../../markdown/markdown.service.js';
import { Bool, Input, Optional, routes, Str, Text } from '../input/route-kit.js';

/**
 * POST /markdown (GitLab's): renders a document for the caller. With `gfm` and a
 * `project`, references resolve in that project and link only what the caller may see;
 * a project the caller cannot see is 404, as everywhere.
 */
export function markdownRoutes(app: FastifyInstance, ctx: RestContext<'markdown' | 'projects'>): void {
  routes(app).post('/markdown', Input({ text: Str(), gfm: Optional(Bool()), project: Optional(Text({ description: 'ID or full path' })) }), async (params, request, reply) => {
    if (Buffer.byteLength(params.text) > MAX_MARKDOWN_BYTES) throw ValidationError.field('text', 'is too long');
    const gfm = params.gfm ?? false;
    const project = gfm && params.project ? await ctx.services.projects.find(request.actor, params.project) : null;
    const html = await ctx.services.markdown.render(request.actor, params.text, { project, references: gfm });
    return reply.status(201).send({ html });
  });
}
