import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../../context.js';
import { tagEntity } from '../../entities/branches.js';
import { Input, NamespacedRef, Optional, routes, Str } from '../../input/route-kit.js';

/** One tag, create and delete (doc/api/tags.md); the list is beside the branches. */
export function tagRoutes(app: FastifyInstance, ctx: RestContext<'tags'>): void {
  const { tags } = ctx.services;
  const r = routes(app);
  const base = '/projects/:id/repository/tags';
  // Tag names with `/` match whether or not the client encoded it, as GitLab's requirements allow.
  const Named = Input({ id: NamespacedRef(), tag_name: Optional(Str()), '*': Optional(Str({ description: 'a tag name with /' })) });
  const tagName = (params: { tag_name?: string; '*'?: string }) => params.tag_name || params['*'] || '';

  for (const path of [`${base}/:tag_name`, `${base}/*`]) {
    r.get(path, Named, async (params, request) => {
      const { project, tag } = await tags.show(request.actor, params.id, tagName(params));
      return tagEntity(tag, project, ctx.urls);
    });
    r.delete(path, Named, async (params, request, reply) => {
      await tags.remove(signedIn(request), params.id, tagName(params));
      return reply.status(204).send();
    });
  }

  r.post(base, Input({ id: NamespacedRef(), tag_name: Str(), ref: Str(), message: Optional(Str()) }), async ({ id, ...tag }, request, reply) => {
    const created = await tags.create(signedIn(request), id, tag);
    return reply.status(201).send(tagEntity(created.tag, created.project, ctx.urls));
  });
}
