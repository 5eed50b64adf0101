import type { FastifyInstance, FastifyRequest } from 'fastify';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { tagEntity } from '../../entities/branches.js';
import { optionalString, requiredString } from '../../params.js';

/** One tag, create and delete (doc/api/tags.md); the list is beside the branches. */
export function tagRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { tags } = ctx.services;
  const base = '/projects/:id/repository/tags';
  // Tag names with `/` match whether or not the client encoded it, as GitLab's requirements allow.
  const tagName = (request: FastifyRequest) => pathParam(request, 'tag_name') || pathParam(request, '*');

  for (const path of [`${base}/:tag_name`, `${base}/*`]) {
    app.get(path, async (request) => {
      const { project, tag } = await tags.show(request.actor, pathParam(request, 'id'), tagName(request));
      return tagEntity(tag, project, ctx.urls);
    });
    app.delete(path, async (request, reply) => {
      await tags.remove(signedIn(request), pathParam(request, 'id'), tagName(request));
      return reply.status(204).send();
    });
  }

  app.post(base, async (request, reply) => {
    const params = input(request);
    const actor = signedIn(request);
    const { project, tag } = await tags.create(actor, pathParam(request, 'id'), {
      tag_name: requiredString(params, 'tag_name'),
      ref: requiredString(params, 'ref'),
      message: optionalString(params, 'message'),
    });
    return reply.status(201).send(tagEntity(tag, project, ctx.urls));
  });
}
