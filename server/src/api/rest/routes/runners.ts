import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../platform/errors.js';
import { RUNNER_STATUSES, type RunnerStatusFilter } from '../../../domains/runners/runner-rules.js';
import { RUNNER_TYPES, type RunnerInfo, type RunnerType } from '../../../domains/runners/runner.js';
import type { RunnerListQuery } from '../../../domains/runners/runners.service.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { resetTokenEntity, runnerDetailsEntity, runnerEntity, runnerRegistrationEntity } from '../entities/runners.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { optionalBool, optionalInt, optionalString, optionalStringArray, type Params } from '../params.js';

/** GitLab's deprecated `scope` values: `specific` and `shared` (runner types), the types, and the statuses. */
const LEGACY_TYPES: Record<string, RunnerType[]> = { specific: ['project_type', 'group_type'], shared: ['instance_type'] };

function oneOfOrUndefined<T extends string>(params: Params, key: string, allowed: readonly T[]): T | undefined {
  const value = optionalString(params, key);
  if (value === undefined || value === '') return undefined;
  if (!allowed.includes(value as T)) throw new ValidationError(`400 (Bad request) "${key}" does not have a valid value`);
  return value as T;
}

/**
 * The list filters of the runners API (`type`, `status`, `paused`, `tag_list`, and the deprecated
 * `scope`: a status on GET /runners, a status or a type on GET /runners/all and /projects/:id/runners,
 * none on /groups/:id/runners). An unknown scope is GitLab's 400 "Scope contains invalid value".
 */
function listQuery(params: Params, scopes: 'statuses' | 'statuses_and_types' | 'none'): Omit<RunnerListQuery, 'limit' | 'offset'> {
  const types: RunnerType[] = [];
  const statuses: RunnerStatusFilter[] = [];
  const type = oneOfOrUndefined(params, 'type', RUNNER_TYPES);
  if (type) types.push(type);
  const status = oneOfOrUndefined(params, 'status', RUNNER_STATUSES);
  if (status) statuses.push(status);
  const scope = scopes === 'none' ? undefined : optionalString(params, 'scope');
  if (scope) {
    if ((RUNNER_STATUSES as readonly string[]).includes(scope)) statuses.push(scope as RunnerStatusFilter);
    else if (scopes === 'statuses_and_types' && (RUNNER_TYPES as readonly string[]).includes(scope)) types.push(scope as RunnerType);
    else if (scopes === 'statuses_and_types' && LEGACY_TYPES[scope]) types.push(...LEGACY_TYPES[scope]!);
    else throw new ValidationError('Scope contains invalid value');
  }
  const tags = optionalStringArray(params, 'tag_list');
  return {
    // two type filters (scope and type) must both hold: keep the types in both
    types: types.length === 0 ? undefined : type && scope ? types.filter((t) => t === type) : types,
    statuses: statuses.length ? statuses : undefined,
    paused: optionalBool(params, 'paused'),
    tags: tags?.map((tag) => tag.trim()).filter(Boolean),
  };
}

function settingsInput(params: Params) {
  return {
    description: optionalString(params, 'description'),
    paused: optionalBool(params, 'paused'),
    locked: optionalBool(params, 'locked'),
    run_untagged: optionalBool(params, 'run_untagged'),
    tag_list: optionalStringArray(params, 'tag_list'),
    access_level: optionalString(params, 'access_level'),
    maximum_timeout: optionalInt(params, 'maximum_timeout'),
    maintenance_note: optionalString(params, 'maintenance_note') ?? optionalString(params, 'maintainer_note'),
  };
}

function runnerId(request: FastifyRequest, name = 'id'): number {
  const id = Number(pathParam(request, name));
  if (!Number.isSafeInteger(id) || id <= 0) throw new ValidationError(`400 (Bad request) "${name}" is invalid`);
  return id;
}

/** The runner token of the runner-facing calls: the `token` parameter, or gitlab-runner's RUNNER-TOKEN header. */
function runnerToken(request: FastifyRequest): string | undefined {
  const fromParams = optionalString(input(request), 'token');
  if (fromParams) return fromParams;
  const header = request.headers['runner-token'];
  return typeof header === 'string' && header ? header : undefined;
}

function runnerInfo(params: Params): RunnerInfo | undefined {
  const info = params.info;
  if (!info || typeof info !== 'object' || Array.isArray(info)) return undefined;
  const text = (key: string) => {
    const value = (info as Record<string, unknown>)[key];
    return typeof value === 'string' && value ? value.slice(0, 255) : undefined;
  };
  return { version: text('version'), revision: text('revision'), platform: text('platform'), architecture: text('architecture') };
}

/**
 * doc/api/runners.md, POST /user/runners (doc/api/users.md), and the runner-token calls that
 * gitlab-runner makes (verify, unregister, reset its token). The runner-token calls authenticate
 * with the runner's own token, not a user's.
 */
export function runnerRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { runners } = ctx.services;
  // GitLab grants the manage_runner scope on /runners/:id paths only.
  const manageRunner = { config: { alsoScopes: ['manage_runner' as const] } };

  async function page(request: FastifyRequest, reply: import('fastify').FastifyReply, list: (query: RunnerListQuery) => Promise<{ runners: import('../../../domains/runners/runner.js').Runner[]; total: number }>, scopes: 'statuses' | 'statuses_and_types' | 'none') {
    const params = input(request);
    const pageParams = parsePage(params);
    const result = await list({ ...listQuery(params, scopes), limit: pageParams.limit, offset: pageParams.offset });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), pageParams, result.total));
    const now = new Date();
    return result.runners.map((runner) => runnerEntity(runner, now));
  }

  app.post('/user/runners', { config: { alsoScopes: ['create_runner' as const] } }, async (request, reply) => {
    const params = input(request);
    const { runner, token } = await runners.create(signedIn(request), {
      runner_type: optionalString(params, 'runner_type'),
      group_id: optionalInt(params, 'group_id'),
      project_id: optionalInt(params, 'project_id'),
      ...settingsInput(params),
    });
    return reply.status(201).send(runnerRegistrationEntity(runner, token));
  });

  // The runner's own calls (lib/api/ci/runner.rb): 403 for a token that is not a runner's.
  app.post('/runners/verify', async (request, reply) => {
    const { runner, token } = await runners.verify(runnerToken(request), { info: runnerInfo(input(request)), ipAddress: request.ip });
    return reply.status(200).send(runnerRegistrationEntity(runner, token));
  });
  app.delete('/runners', async (request, reply) => {
    await runners.unregister(runnerToken(request));
    return reply.status(204).send();
  });
  app.post('/runners/reset_authentication_token', async (request, reply) => {
    const { runner, token } = await runners.resetOwnToken(runnerToken(request));
    return reply.status(201).send(resetTokenEntity(runner, token));
  });

  app.get('/runners', async (request, reply) => page(request, reply, (query) => runners.listOwned(signedIn(request), query), 'statuses'));
  app.get('/runners/all', async (request, reply) => page(request, reply, (query) => runners.listAll(signedIn(request), query), 'statuses_and_types'));
  app.get('/runners/:id', manageRunner, async (request) => runnerDetailsEntity(await runners.show(signedIn(request), runnerId(request)), ctx.urls));
  app.put('/runners/:id', manageRunner, async (request) => {
    const params = input(request);
    const details = await runners.update(signedIn(request), runnerId(request), { ...settingsInput(params), active: optionalBool(params, 'active') });
    return runnerDetailsEntity(details, ctx.urls);
  });
  app.delete('/runners/:id', manageRunner, async (request, reply) => {
    await runners.remove(signedIn(request), runnerId(request));
    return reply.status(204).send();
  });
  app.post('/runners/:id/reset_authentication_token', manageRunner, async (request, reply) => {
    const { runner, token } = await runners.resetToken(signedIn(request), runnerId(request));
    return reply.status(201).send(resetTokenEntity(runner, token));
  });

  app.get('/projects/:id/runners', async (request, reply) =>
    page(request, reply, (query) => runners.listForProject(signedIn(request), pathParam(request, 'id'), query), 'statuses_and_types'),
  );
  app.post('/projects/:id/runners', async (request, reply) => {
    const id = optionalInt(input(request), 'runner_id');
    if (id === undefined) throw ValidationError.missing('runner_id');
    const runner = await runners.assignToProject(signedIn(request), pathParam(request, 'id'), id);
    return reply.status(201).send(runnerEntity(runner));
  });
  app.delete('/projects/:id/runners/:runner_id', async (request, reply) => {
    await runners.unassignFromProject(signedIn(request), pathParam(request, 'id'), runnerId(request, 'runner_id'));
    return reply.status(204).send();
  });
  app.get('/groups/:id/runners', async (request, reply) => page(request, reply, (query) => runners.listForGroup(signedIn(request), pathParam(request, 'id'), query), 'none'));
}
