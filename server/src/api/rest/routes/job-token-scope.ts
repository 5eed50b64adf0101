import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../context.js';
import { projectBasic } from '../entities/projects.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { Id, Input, NamespacedRef, Pagination, routes } from '../input/route-kit.js';

/**
 * The CI/CD job token scope (GitLab's doc/api/project_job_token_scopes.md): the inbound setting
 * and the allowlist of projects whose job tokens may read this one.
 */
export function jobTokenScopeRoutes(app: FastifyInstance, ctx: RestContext<'jobTokenScope'>): void {
  const { jobTokenScope } = ctx.services;
  const r = routes(app);

  r.get('/projects/:id/job_token_scope', Input({ id: NamespacedRef() }), async (params, request) => jobTokenScope.settings(signedIn(request), params.id));

  r.get('/projects/:id/job_token_scope/allowlist', Input({ id: NamespacedRef(), ...Pagination }), async (params, request, reply) => {
    const page = parsePage(params);
    const projects = await jobTokenScope.allowlist(signedIn(request), params.id);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, projects.length));
    return projects.slice(page.offset, page.offset + page.limit).map((project) => projectBasic(project, ctx.urls));
  });

  r.post('/projects/:id/job_token_scope/allowlist', Input({ id: NamespacedRef(), target_project_id: Id({ description: 'the project whose job tokens may read this one' }) }), async (params, request, reply) =>
    reply.status(201).send(await jobTokenScope.add(signedIn(request), params.id, params.target_project_id)),
  );

  r.delete('/projects/:id/job_token_scope/allowlist/:target_project_id', Input({ id: NamespacedRef(), target_project_id: Id() }), async (params, request, reply) => {
    await jobTokenScope.remove(signedIn(request), params.id, params.target_project_id);
    return reply.status(204).send();
  });
}
