import type { FastifyInstance } from 'fastify';
import { VARIABLE_TYPES } from '../../../domains/ci-variables/ci-variable.js';
import type { OwnerRef } from '../../../domains/ci-variables/ci-variables.service.js';
import type { RestContext } from '../context.js';
import { ciVariableEntity } from '../entities/ci-variables.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { BlankableStr, Bool, Enum, Input, NamespacedRef, Nullable, Obj, Optional, Pagination, routes, Str } from '../input/route-kit.js';

/** `filter[environment_scope]=…`, GitLab's way to pick one of several variables with the same key. */
const ScopeFilter = { filter: Optional(Obj({ environment_scope: Optional(Str()) })) };

/**
 * GitLab's writable variable attributes (all but key and value optional). Blank values are
 * kept: an empty variable is allowed, and a key's format is the domain's rule (variable-rules.ts).
 */
const Attributes = {
  variable_type: Optional(Enum(VARIABLE_TYPES)),
  protected: Optional(Bool()),
  masked: Optional(Bool()),
  raw: Optional(Bool()),
  environment_scope: Optional(Str()),
  description: Optional(Nullable(Str())),
};

/**
 * CI/CD variables of projects, groups and the instance: GitLab's doc/api/project_level_variables.md,
 * group_level_variables.md and instance_level_variables.md, one route set for the three owners.
 * Values travel in bodies or query strings; the request log redacts `value=` (platform/logger.ts).
 */
export function ciVariableRoutes(app: FastifyInstance, ctx: RestContext<'ciVariables'>): void {
  const { ciVariables } = ctx.services;
  const r = routes(app);
  // Each owner's path parameters, and the owner they name (a project or group by id or path; the instance has none).
  const Owner = { id: NamespacedRef() };
  const owners: [string, Partial<typeof Owner>, (path: { id?: string }) => OwnerRef][] = [
    ['/projects/:id/variables', Owner, ({ id }) => ({ kind: 'project', idOrPath: String(id) })],
    ['/groups/:id/variables', Owner, ({ id }) => ({ kind: 'group', idOrPath: String(id) })],
    ['/admin/ci/variables', {}, () => ({ kind: 'instance' })],
  ];

  for (const [base, path, ownerOf] of owners) {
    const Key = { ...path, key: Str() };

    r.get(base, Input({ ...path, ...Pagination }), async (params, request, reply) => {
      const page = parsePage(params);
      const result = await ciVariables.list(request.actor, ownerOf(params), page);
      reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
      return result.variables.map((variable) => ciVariableEntity(result.owner, variable));
    });

    r.get(`${base}/:key`, Input({ ...Key, ...ScopeFilter }), async (params, request) => {
      const result = await ciVariables.show(request.actor, ownerOf(params), params.key, params.filter?.environment_scope);
      return ciVariableEntity(result.owner, result.variable);
    });

    r.post(
      base,
      Input({ ...path, key: BlankableStr(), value: BlankableStr(), ...Attributes, masked_and_hidden: Optional(Bool()) }),
      async (params, request, reply) => {
        const { key, value, variable_type, protected: isProtected, masked, raw, environment_scope, description, masked_and_hidden } = params;
        const result = await ciVariables.create(request.actor, ownerOf(params), { key, value, variable_type, protected: isProtected, masked, raw, environment_scope, description, masked_and_hidden });
        return reply.status(201).send(ciVariableEntity(result.owner, result.variable));
      },
    );

    r.put(`${base}/:key`, Input({ ...Key, ...ScopeFilter, value: Optional(BlankableStr()), ...Attributes }), async (params, request) => {
      const { value, variable_type, protected: isProtected, masked, raw, environment_scope, description } = params;
      const attributes = { value, variable_type, protected: isProtected, masked, raw, environment_scope, description };
      const result = await ciVariables.update(request.actor, ownerOf(params), params.key, params.filter?.environment_scope, attributes);
      return ciVariableEntity(result.owner, result.variable);
    });

    r.delete(`${base}/:key`, Input({ ...Key, ...ScopeFilter }), async (params, request, reply) => {
      await ciVariables.remove(request.actor, ownerOf(params), params.key, params.filter?.environment_scope);
      return reply.status(204).send();
    });
  }
}
