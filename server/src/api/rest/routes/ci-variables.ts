import type { FastifyInstance, FastifyRequest } from 'fastify';
import { VARIABLE_TYPES } from '../../../domains/ci-variables/ci-variable.js';
import type { OwnerRef } from '../../../domains/ci-variables/ci-variables.service.js';
import { ValidationError } from '../../../platform/errors.js';
import { input, pathParam, type RestContext } from '../context.js';
import { ciVariableEntity } from '../entities/ci-variables.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { optionalBool, optionalString, type Params } from '../params.js';

/** `filter[environment_scope]=…`, GitLab's way to pick one of several variables with the same key. */
function scopeFilter(params: Params): string | undefined {
  const filter = params.filter;
  if (filter === undefined || filter === null || filter === '') return undefined;
  if (typeof filter !== 'object' || Array.isArray(filter)) throw new ValidationError('400 (Bad request) "filter" is invalid');
  return optionalString(filter as Params, 'environment_scope');
}

function variableType(params: Params) {
  const value = optionalString(params, 'variable_type');
  if (value === undefined) return undefined;
  if (!(VARIABLE_TYPES as readonly string[]).includes(value)) throw new ValidationError('400 (Bad request) "variable_type" does not have a valid value');
  return value as (typeof VARIABLE_TYPES)[number];
}

/** The writable attributes of a request, each undefined when not sent. */
function attributes(params: Params) {
  return {
    value: optionalString(params, 'value'),
    variable_type: variableType(params),
    protected: optionalBool(params, 'protected'),
    masked: optionalBool(params, 'masked'),
    raw: optionalBool(params, 'raw'),
    environment_scope: optionalString(params, 'environment_scope'),
    description: optionalString(params, 'description'),
  };
}

/**
 * CI/CD variables of projects, groups and the instance: GitLab's doc/api/project_level_variables.md,
 * group_level_variables.md and instance_level_variables.md, one route set for the three owners.
 * Values travel in bodies or query strings; the request log redacts `value=` (platform/logger.ts).
 */
export function ciVariableRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { ciVariables } = ctx.services;
  const owners: [string, (request: FastifyRequest) => OwnerRef][] = [
    ['/projects/:id/variables', (request) => ({ kind: 'project', idOrPath: pathParam(request, 'id') })],
    ['/groups/:id/variables', (request) => ({ kind: 'group', idOrPath: pathParam(request, 'id') })],
    ['/admin/ci/variables', () => ({ kind: 'instance' })],
  ];

  for (const [base, ownerOf] of owners) {
    app.get(base, async (request, reply) => {
      const page = parsePage(input(request));
      const result = await ciVariables.list(request.actor, ownerOf(request), page);
      reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
      return result.variables.map((variable) => ciVariableEntity(result.owner, variable));
    });

    app.get(`${base}/:key`, async (request) => {
      const result = await ciVariables.show(request.actor, ownerOf(request), pathParam(request, 'key'), scopeFilter(input(request)));
      return ciVariableEntity(result.owner, result.variable);
    });

    app.post(base, async (request, reply) => {
      const params = input(request);
      const result = await ciVariables.create(request.actor, ownerOf(request), {
        key: optionalString(params, 'key'),
        ...attributes(params),
        masked_and_hidden: optionalBool(params, 'masked_and_hidden'),
      });
      return reply.status(201).send(ciVariableEntity(result.owner, result.variable));
    });

    app.put(`${base}/:key`, async (request) => {
      const params = input(request);
      const result = await ciVariables.update(request.actor, ownerOf(request), pathParam(request, 'key'), scopeFilter(params), attributes(params));
      return ciVariableEntity(result.owner, result.variable);
    });

    app.delete(`${base}/:key`, async (request, reply) => {
      await ciVariables.remove(request.actor, ownerOf(request), pathParam(request, 'key'), scopeFilter(input(request)));
      return reply.status(204).send();
    });
  }
}
