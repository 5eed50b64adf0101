import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../platform/errors.js';
import { RUNNER_STATUSES, type RunnerStatusFilter } from '../../../domains/runners/runner-rules.js';
import { RUNNER_ACCESS_LEVELS, RUNNER_TYPES, type Runner, type RunnerInfo, type RunnerType } from '../../../domains/runners/runner.js';
import type { RunnerListQuery } from '../../../domains/runners/runners.service.js';
import { signedIn, type RestContext } from '../context.js';
import { resetTokenEntity, runnerDetailsEntity, runnerEntity, runnerManagerEntity, runnerRegistrationEntity } from '../entities/runners.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { Any, Bool, Enum, Hash, Id, Input, Int, List, NamespacedRef, Optional, Pagination, PathId, routes, Str, Text, type Static } from '../input/route-kit.js';

/** GitLab's deprecated `scope` values: `specific` and `shared` (runner types), the types, and the statuses. */
const LEGACY_TYPES: Record<string, RunnerType[]> = { specific: ['project_type', 'group_type'], shared: ['instance_type'] };

/** The list filters of the runners API; `scope` (deprecated) only where GitLab takes it. */
const RunnerFilters = {
  ...Pagination,
  type: Optional(Enum(RUNNER_TYPES)),
  status: Optional(Enum(RUNNER_STATUSES)),
  paused: Optional(Bool()),
  tag_list: Optional(List(Str())),
};
const ScopedRunnerFilters = { ...RunnerFilters, scope: Optional(Text()) };
type RunnerFilterInput = Static<ReturnType<typeof Input<typeof RunnerFilters>>> & { scope?: string };

/**
 * The list filters of the runners API (`type`, `status`, `paused`, `tag_list`, and the deprecated
 * `scope`: a status on GET /runners, a status or a type on GET /runners/all and /projects/:id/runners,
 * none on /groups/:id/runners). An unknown scope is GitLab's 400 "Scope contains invalid value".
 */
export function listQuery(params: RunnerFilterInput, scopes: 'statuses' | 'statuses_and_types' | 'none'): Omit<RunnerListQuery, 'limit' | 'offset'> {
  const types: RunnerType[] = [];
  const statuses: RunnerStatusFilter[] = [];
  const type = params.type;
  if (type) types.push(type);
  if (params.status) statuses.push(params.status);
  const scope = scopes === 'none' ? undefined : params.scope;
  if (scope) {
    if ((RUNNER_STATUSES as readonly string[]).includes(scope)) statuses.push(scope as RunnerStatusFilter);
    else if (scopes === 'statuses_and_types' && (RUNNER_TYPES as readonly string[]).includes(scope)) types.push(scope as RunnerType);
    else if (scopes === 'statuses_and_types' && LEGACY_TYPES[scope]) types.push(...LEGACY_TYPES[scope]!);
    else throw new ValidationError('Scope contains invalid value');
  }
  return {
    // two type filters (scope and type) must both hold: keep the types in both
    types: types.length === 0 ? undefined : [...new Set(type && scope ? types.filter((t) => t === type) : types)],
    statuses: statuses.length ? statuses : undefined,
    paused: params.paused,
    tags: params.tag_list?.map((tag) => tag.trim()).filter(Boolean),
  };
}

/** GitLab's runner settings (POST /user/runners, PUT /runners/:id); `maintainer_note` is the deprecated name of `maintenance_note`. */
const RunnerSettings = {
  description: Optional(Str()),
  paused: Optional(Bool()),
  locked: Optional(Bool()),
  run_untagged: Optional(Bool()),
  tag_list: Optional(List(Str())),
  access_level: Optional(Enum(RUNNER_ACCESS_LEVELS)),
  maximum_timeout: Optional(Int()),
  maintenance_note: Optional(Str()),
  maintainer_note: Optional(Str()),
};

function settingsInput({ maintenance_note, maintainer_note, description, paused, locked, run_untagged, tag_list, access_level, maximum_timeout }: Static<ReturnType<typeof Input<typeof RunnerSettings>>>) {
  return { description, paused, locked, run_untagged, tag_list, access_level, maximum_timeout, maintenance_note: maintenance_note ?? maintainer_note };
}

/** The runner token of the runner-facing calls: the `token` parameter, or gitlab-runner's RUNNER-TOKEN header. */
function runnerToken(request: FastifyRequest, token: string | undefined): string | undefined {
  if (token) return token;
  const header = request.headers['runner-token'];
  return typeof header === 'string' && header ? header : undefined;
}
const RunnerToken = { token: Optional(Str({ description: 'the runner authentication token (or the RUNNER-TOKEN header)' })) };

/** The runner's `info` hash: the fields kept, each a non-empty string cut to 255 characters. */
export function runnerInfo(info: unknown): RunnerInfo | undefined {
  if (!info || typeof info !== 'object' || Array.isArray(info)) return undefined;
  const text = (key: string) => {
    const value = (info as Record<string, unknown>)[key];
    return typeof value === 'string' && value ? value.slice(0, 255) : undefined;
  };
  return { version: text('version'), revision: text('revision'), platform: text('platform'), architecture: text('architecture'), executor: text('executor') };
}

const RunnerPath = Input({ id: PathId('Runner') });

/**
 * doc/api/runners.md, POST /user/runners (doc/api/users.md), and the runner-token calls that
 * gitlab-runner makes (verify, unregister, reset its token). The runner-token calls authenticate
 * with the runner's own token, not a user's.
 */
export function runnerRoutes(app: FastifyInstance, ctx: RestContext<'runnerRegistration' | 'runners'>): void {
  const { runners } = ctx.services;
  const r = routes(app);
  // GitLab grants the manage_runner scope on /runners/:id paths only.
  const manageRunner = { config: { alsoScopes: ['manage_runner' as const] } };

  async function page(
    request: FastifyRequest,
    reply: FastifyReply,
    params: RunnerFilterInput,
    list: (query: RunnerListQuery) => Promise<{ runners: Runner[]; total: number }>,
    scopes: 'statuses' | 'statuses_and_types' | 'none',
  ) {
    const pageParams = parsePage(params);
    const result = await list({ ...listQuery(params, scopes), limit: pageParams.limit, offset: pageParams.offset });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), pageParams, result.total));
    const now = new Date();
    return result.runners.map((runner) => runnerEntity(runner, now));
  }

  r.post(
    '/user/runners',
    Input({ runner_type: Enum(RUNNER_TYPES), group_id: Optional(Id()), project_id: Optional(Id()), ...RunnerSettings }),
    async (params, request, reply) => {
      const { runner, token } = await runners.create(signedIn(request), { runner_type: params.runner_type, group_id: params.group_id, project_id: params.project_id, ...settingsInput(params) });
      return reply.status(201).send(runnerRegistrationEntity(runner, token));
    },
    { config: { alsoScopes: ['create_runner' as const] } },
  );

  // The runner's own calls (lib/api/ci/runner.rb): 403 for a token that is not a runner's.
  r.post('/runners/verify', Input({ ...RunnerToken, system_id: Optional(Str()), info: Optional(Hash(Any())) }), async (params, request, reply) => {
    const { runner, token } = await runners.verify(runnerToken(request, params.token), { systemId: params.system_id, info: runnerInfo(params.info), ipAddress: request.ip });
    return reply.status(200).send(runnerRegistrationEntity(runner, token));
  });
  // gitlab-runner register with a legacy registration token (GitLab's POST /runners; its `tag_list` is a comma list).
  r.post(
    '/runners',
    Input({ token: Optional(Str({ description: 'a registration token' })), info: Optional(Hash(Any())), active: Optional(Bool()), ...RunnerSettings }),
    async (params, request, reply) => {
      if (params.active !== undefined && params.paused !== undefined) throw new ValidationError('400 (Bad request) active, paused are mutually exclusive');
      const { runner, token } = await ctx.services.runnerRegistration.register(params.token, { ...settingsInput(params), active: params.active });
      return reply.status(201).send(runnerRegistrationEntity(runner, token));
    },
  );
  r.delete('/runners', Input(RunnerToken), async (params, request, reply) => {
    await runners.unregister(runnerToken(request, params.token));
    return reply.status(204).send();
  });
  r.delete('/runners/managers', Input({ ...RunnerToken, system_id: Optional(Str()) }), async (params, request, reply) => {
    await runners.unregisterManager(runnerToken(request, params.token), params.system_id);
    return reply.status(204).send();
  });
  r.post('/runners/reset_authentication_token', Input(RunnerToken), async (params, request, reply) => {
    const { runner, token } = await runners.resetOwnToken(runnerToken(request, params.token));
    return reply.status(201).send(resetTokenEntity(runner, token));
  });

  r.post('/runners/reset_registration_token', Input({}), async (_params, request, reply) => {
    const { token } = await ctx.services.runnerRegistration.resetInstanceToken(signedIn(request));
    return reply.status(201).send({ token, token_expires_at: null });
  });
  r.post('/projects/:id/runners/reset_registration_token', Input({ id: NamespacedRef() }), async (params, request, reply) => {
    const { token } = await ctx.services.runnerRegistration.resetProjectToken(signedIn(request), params.id);
    return reply.status(201).send({ token, token_expires_at: null });
  });
  r.post('/groups/:id/runners/reset_registration_token', Input({ id: NamespacedRef() }), async (params, request, reply) => {
    const { token } = await ctx.services.runnerRegistration.resetGroupToken(signedIn(request), params.id);
    return reply.status(201).send({ token, token_expires_at: null });
  });
  r.get('/runners/:id/managers', RunnerPath, async ({ id }, request) => {
    const now = new Date();
    return (await runners.managers(signedIn(request), id)).map((manager) => runnerManagerEntity(manager, now));
  }, manageRunner);

  r.get('/runners', Input(ScopedRunnerFilters), async (params, request, reply) => page(request, reply, params, (query) => runners.listOwned(signedIn(request), query), 'statuses'));
  r.get('/runners/all', Input(ScopedRunnerFilters), async (params, request, reply) => page(request, reply, params, (query) => runners.listAll(signedIn(request), query), 'statuses_and_types'));
  r.get('/runners/:id', RunnerPath, async ({ id }, request) => runnerDetailsEntity(await runners.show(signedIn(request), id), ctx.urls), manageRunner);
  r.put(
    '/runners/:id',
    Input({ ...RunnerPath.properties, ...RunnerSettings, active: Optional(Bool()) }),
    async (params, request) => {
      const details = await runners.update(signedIn(request), params.id, { ...settingsInput(params), active: params.active });
      return runnerDetailsEntity(details, ctx.urls);
    },
    manageRunner,
  );
  r.delete(
    '/runners/:id',
    RunnerPath,
    async ({ id }, request, reply) => {
      await runners.remove(signedIn(request), id);
      return reply.status(204).send();
    },
    manageRunner,
  );
  r.post(
    '/runners/:id/reset_authentication_token',
    RunnerPath,
    async ({ id }, request, reply) => {
      const { runner, token } = await runners.resetToken(signedIn(request), id);
      return reply.status(201).send(resetTokenEntity(runner, token));
    },
    manageRunner,
  );

  r.get('/projects/:id/runners', Input({ id: NamespacedRef(), ...ScopedRunnerFilters }), async (params, request, reply) =>
    page(request, reply, params, (query) => runners.listForProject(signedIn(request), params.id, query), 'statuses_and_types'),
  );
  r.post('/projects/:id/runners', Input({ id: NamespacedRef(), runner_id: Id() }), async (params, request, reply) => {
    const runner = await runners.assignToProject(signedIn(request), params.id, params.runner_id);
    return reply.status(201).send(runnerEntity(runner));
  });
  r.delete('/projects/:id/runners/:runner_id', Input({ id: NamespacedRef(), runner_id: PathId('Runner') }), async (params, request, reply) => {
    await runners.unassignFromProject(signedIn(request), params.id, params.runner_id);
    return reply.status(204).send();
  });
  r.get('/groups/:id/runners', Input({ id: NamespacedRef(), ...RunnerFilters }), async (params, request, reply) =>
    page(request, reply, params, (query) => runners.listForGroup(signedIn(request), params.id, query), 'none'),
  );
}
