import { registerGraphqlInputGuard } from '../http/input-guard.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import mercurius from 'mercurius';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import type { EventBus } from '../../platform/events.js';
import { DomainError, InsufficientScopeError } from '../../platform/errors.js';
import { isForeignOrigin } from '../rest/authenticate.js';
import type { UrlBuilder } from '../rest/entities/users.js';
import { WATCHED_TABLES, type WriteWatch } from '../../platform/db/write-watch.js';
import { createResponseCache, type GraphqlRequestBody } from './response-cache.js';
import { withEditor, type EditorDeps } from './editor/index.js';
import { withGlobalIdMessage } from './editor/errors.js';
import { withLabels, type LabelsGraphqlDeps } from './labels/resolvers.js';
import { withApprovals, type ApprovalsGraphqlDeps } from './approvals/resolvers.js';
import { withMergeTrains, type MergeTrainsGraphqlDeps } from './merge-trains/resolvers.js';
import { bridgePipelineEvents, withPipelines, type PipelineGraphqlDeps } from './pipelines/subscriptions.js';
import { createResolvers, type GraphqlContext } from './resolvers.js';
import { schema } from './schema.js';
import { bridgeMergeRequestEvents, type SocketIdentity } from './subscriptions.js';
import { createRequestScope, type WidgetDeps } from './widget/request-scope.js';

export const GRAPHQL_PATH = '/api/graphql';
/** Deep enough for every query the web app makes and GitLab's introspection (depth 7), no deeper. */
const QUERY_DEPTH_LIMIT = 15;

export interface GraphqlDeps {
  /** The REST API's authenticator: tokens, sessions with their CSRF rule, sudo. */
  authenticate(request: FastifyRequest): Promise<Actor>;
  events: Pick<EventBus, 'subscribe'>;
  widgets: WidgetDeps;
  /** counts writes to every table the schema reads: whole answers are kept until it moves */
  watch: Pick<WriteWatch, 'generation'>;
  urls: UrlBuilder;
  externalUrl: string;
  /** the services behind the threads, notes and mutations of GitLab's editor extensions */
  editor: Omit<EditorDeps, 'urls'>;
  /** the services behind merge requests' labels and milestone and their mutations */
  labels: LabelsGraphqlDeps;
  /** approvals (domains/approvals/): the state fields and mergeRequestApprove / mergeRequestUnapprove */
  approvals: ApprovalsGraphqlDeps;
  /** pipelines and jobs: their fields, mutations and the live pages' subscriptions */
  pipelines: PipelineGraphqlDeps;
  /** merge trains (domains/merge-trains/): a merge request's car and position, a project's trains */
  mergeTrains: MergeTrainsGraphqlDeps;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the response cache's key and the generation the answer is computed at (POST queries only) */
    graphqlCache?: { key: string; generation: number };
  }
}

const isWebSocket = (request: FastifyRequest) => request.headers.upgrade?.toLowerCase() === 'websocket';

/** Authentication failures in GraphQL's error shape, with the REST API's status codes. */
function refuse(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof InsufficientScopeError) {
    return reply.status(403).send({ errors: [{ message: 'The request requires higher privileges than provided by the access token.' }] });
  }
  if (error instanceof DomainError) return reply.status(error.status).send({ errors: [{ message: error.message }] });
  throw error;
}

/**
 * GitLab's GraphQL API at /api/graphql (Mercurius): POST for queries and mutations, GET for
 * queries only, WebSocket (graphql-ws protocol) for subscriptions. Callers authenticate as
 * with the REST API: a token with the `api` or `read_api` scope (mutations need `api`, see
 * editor/mutations.ts), or the web app's session cookie, with the X-CSRF-Token header on
 * every POST, so a mutation from a cookie session always carries it. Over
 * WebSocket, the session cookie counts only when the page's Origin is ours (browsers send
 * cookies with cross-site WebSockets), or a token comes in the connection_init payload.
 */
export async function registerGraphql(app: FastifyInstance, deps: GraphqlDeps): Promise<void> {
  const createScope = (actor: Actor) => createRequestScope(deps.widgets, actor);

  /**
   * A copy of what the upgrade request authenticates with, taken once: the connection is
   * checked again with it on every delivery, and nothing a client sends later (mercurius
   * copies connection_init fields into the request's headers) can change it. A page of
   * another origin gets no cookie session.
   */
  function upgradeCredentials(request: FastifyRequest): FastifyRequest {
    const cookies = isForeignOrigin(request, deps.externalUrl) ? {} : { ...request.cookies };
    return { method: 'GET', protocol: request.protocol, headers: { ...request.headers }, query: { ...(request.query as object) }, cookies } as unknown as FastifyRequest;
  }

  /** A token from connection_init, authenticated exactly as a PRIVATE-TOKEN header would be. */
  const tokenCredentials = (token: string) => ({ method: 'GET', protocol: 'http', headers: { 'private-token': token }, query: {}, cookies: {} }) as unknown as FastifyRequest;

  async function identify(snapshot: FastifyRequest): Promise<SocketIdentity> {
    const check = async () => {
      const actor = await deps.authenticate(snapshot);
      assertApiScope(actor, 'GET');
      return actor;
    };
    return { actor: await check(), refresh: () => check().catch(() => null) };
  }

  app.addHook('onRequest', async (request, reply) => {
    try {
      request.actor = isWebSocket(request) ? (await identify(upgradeCredentials(request))).actor : await deps.authenticate(request);
      assertApiScope(request.actor, 'GET');
    } catch (error) {
      return refuse(reply, error);
    }
  });

  registerGraphqlInputGuard(app);

  // Whole answers, per caller, until a table the schema reads is written or a push moves a branch.
  const answers = createResponseCache({ generation: () => deps.watch.generation(WATCHED_TABLES) + deps.widgets.gitFacts.generation() });
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const key = answers.keyOf(request.actor, request.body as GraphqlRequestBody | undefined);
    if (key === null) return;
    const kept = answers.get(key);
    if (kept !== undefined) return reply.type('application/json; charset=utf-8').send(kept);
    request.graphqlCache = { key, generation: answers.generation() };
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.graphqlCache && reply.statusCode === 200 && typeof payload === 'string') answers.store(request.graphqlCache.key, request.graphqlCache.generation, payload);
    return payload;
  });

  await app.register(mercurius, {
    schema,
    resolvers: withMergeTrains(withPipelines(withApprovals(withLabels(withEditor(createResolvers({ urls: deps.urls, createScope }), { ...deps.editor, urls: deps.urls }), deps.labels), deps.approvals), deps.pipelines), deps.mergeTrains) as never,
    path: GRAPHQL_PATH,
    graphiql: false,
    // Compile a query to JavaScript after its first run: the widget's one query is run by every page.
    jit: 1,
    queryDepth: QUERY_DEPTH_LIMIT,
    errorFormatter: (execution, context) => mercurius.defaultErrorFormatter({ ...execution, errors: execution.errors.map(withGlobalIdMessage) }, context),
    context: (request): GraphqlContext => ({
      scope: createScope(request.actor),
      // CI answers are never kept: job tables change far too often to watch (docs/graphql.md)
      noStore: () => {
        request.graphqlCache = undefined;
      },
    }),
    subscription: {
      context: async (_socket: unknown, request: FastifyRequest) => ({ identity: await identify(upgradeCredentials(request)) }),
      // A token in connection_init ({ "authorization": "Bearer …" } or { "private-token": … },
      // also inside "headers") replaces whatever the upgrade request carried.
      onConnect: async ({ payload }: { payload?: unknown }) => {
        const token = payloadToken(payload);
        if (token === undefined) return true;
        try {
          return { identity: await identify(tokenCredentials(token)) };
        } catch {
          return false;
        }
      },
    },
  });

  const stop = bridgeMergeRequestEvents(deps.events, app.graphql.pubsub);
  const stopPipelines = bridgePipelineEvents(deps.events, app.graphql.pubsub);
  app.addHook('onClose', async () => {
    stop();
    stopPipelines();
  });
}

/** The token a graphql-ws client sends in its connection_init payload, if any. */
export function payloadToken(payload: unknown): string | undefined {
  if (!payload || typeof payload !== 'object') return undefined;
  const outer = payload as Record<string, unknown>;
  const fields = outer.headers && typeof outer.headers === 'object' ? (outer.headers as Record<string, unknown>) : outer;
  const lower = new Map(Object.entries(fields).map(([key, value]) => [key.toLowerCase(), value]));
  const direct = lower.get('private-token') ?? lower.get('token');
  if (typeof direct === 'string' && direct) return direct;
  const authorization = lower.get('authorization');
  if (typeof authorization === 'string' && authorization.toLowerCase().startsWith('bearer ')) return authorization.slice(7).trim() || undefined;
  return undefined;
}
