/**
 * The Fastify instance before any route: GitLab's body and query parsing (empty JSON bodies,
 * bracket keys, multipart fields nested like a query string), the input guard, the request log
 * line, the route list and the one error handler. buildApp (app.ts) creates it first; the routes
 * (web-routes.ts) are registered on it afterwards, so every hook here applies to every route.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import { redactUrl } from '../platform/logger.js';
import { registerInputGuard } from '../api/http/input-guard.js';
import { createDeferredSchemaCompilers } from '../api/http/deferred-schema-compilers.js';
import { registerMultipart } from '../api/http/multipart.js';
import { nestFields, parseQueryString } from '../api/http/query-string.js';
import { registerErrorHandler } from '../api/rest/error-handler.js';
import { registerGitlabJsonContentType } from '../api/rest/json-content-type.js';
import { declaredInput } from '../api/rest/input/route.js';
import { rememberFileNames } from '../api/rest/routes/uploads/multipart-files.js';
import { rewriteProjectPathUrl } from '../api/web/project-path-routes.js';

/** Request bodies above this answer 413 (file uploads through the API included). */
export const BODY_LIMIT_BYTES = 20 * 1024 * 1024;

export async function createHttpServer(deps: { config: Pick<Config, 'trustProxy'>; logger: Logger }) {
  const schemaCompilers = createDeferredSchemaCompilers();
  const http: FastifyInstance = Fastify({
    schemaController: { compilersFactory: schemaCompilers.compilersFactory },
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.config.trustProxy,
    routerOptions: { querystringParser: (query: string) => parseQueryString(query), ignoreTrailingSlash: true },
    rewriteUrl: (request) => rewriteProjectPathUrl(request.url ?? '/'),
    // One request line of our own (onResponse below), with secrets stripped from the URL.
    logController: new LogController({ disableRequestLogging: true }),
  });
  closeConnectionsAnsweredWhileClosing(http);
  http.addHook('onResponse', async (request, reply) => {
    request.log.info({ method: request.method, url: redactUrl(request.originalUrl), status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  // GitLab reads an empty JSON body as no parameters (curl scripts send one); anything else parses as usual.
  const parseJson = http.getDefaultJsonParser('error', 'ignore');
  http.removeContentTypeParser('application/json');
  http.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    (body as string).trim() === '' ? done(null, {}) : parseJson(request, body as string, done),
  );
  registerGitlabJsonContentType(http);
  await http.register(fastifyCookie);
  await http.register(fastifyFormbody, { parser: (body: string) => parseQueryString(body), bodyLimit: BODY_LIMIT_BYTES });
  await registerMultipart(http, { attachFieldsToBody: 'keyValues', limits: { fileSize: BODY_LIMIT_BYTES }, onFile: rememberFileNames });
  // Multipart fields arrive flat (`position[base_sha]`); nest them like a query string.
  http.addHook('preValidation', async (request) => {
    if (request.isMultipart() && request.body && typeof request.body === 'object') {
      request.body = nestFields(request.body as Record<string, unknown>);
    }
  });
  // No input reaches the database unchecked: NUL bytes and out-of-range ids, on every route.
  registerInputGuard(http, { declaresInput: (request) => declaredInput(request) !== undefined });
  const routes: { method: string; url: string }[] = [];
  http.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  registerErrorHandler(http);
  return { http, routes, schemaCompilers };
}

/**
 * A closing server ends every keep-alive connection as soon as it has nothing to answer on it.
 * Node's `server.close()` (called by `http.close()`) closes the connections idle at that moment
 * and then waits for the others; a response still being written then (a streamed download whose
 * last bytes the client already has, a long-polling job request just answered 204) leaves its
 * connection open once it ends, until the keep-alive timeout (72 s) — the close waited that long.
 * So once closing has begun, every response that ends closes the connections now idle.
 */
function closeConnectionsAnsweredWhileClosing(http: FastifyInstance): void {
  let closing = false;
  http.addHook('preClose', async () => {
    closing = true;
  });
  http.server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    // After Node has detached the finished response from its socket (same 'finish' event, later listener).
    response.once('finish', () => {
      if (closing) setImmediate(() => http.server.closeIdleConnections());
    });
  });
}
