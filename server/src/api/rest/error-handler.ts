import type { FastifyError, FastifyInstance } from 'fastify';
import { DomainError, InsufficientScopeError } from '../../platform/errors.js';
import { ParamsError } from './input/coerce.js';

/** Errors from lower layers (git, parsers) may carry an HTTP status of their own. */
function statusOf(error: unknown): number | undefined {
  const candidate = (error as { status?: unknown; statusCode?: unknown }) ?? {};
  const status = typeof candidate.status === 'number' ? candidate.status : candidate.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : undefined;
}

/**
 * The one error handler: typed domain errors become GitLab's status codes
 * and `{"message": …}` bodies; input that does not match a route's declared
 * schema is Grape's 400 `{"error": "title is missing, iid is invalid"}`; Fastify's own 4xx (bad JSON, oversize body,
 * unsupported media type) keep their status with a GitLab-style message;
 * anything else is a logged 500 whose details never reach the caller.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    // 304 carries no body (HTTP), as GitLab's not_modified!
    if (error instanceof DomainError) return error.status === 304 ? reply.status(304).send() : reply.status(error.status).send({ message: error.body });
    if (error instanceof ParamsError) return reply.status(400).send({ error: error.message });
    if (error instanceof InsufficientScopeError) {
      return reply.status(403).send({
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: error.scopes.join(' '),
      });
    }
    const status = statusOf(error);
    if (status && status < 500) {
      const code = (error as FastifyError).code;
      if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ message: '413 Request Entity Too Large' });
      if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
        return reply.status(400).send({ message: `400 Bad request - ${error.message}` });
      }
      return reply.status(status).send({ message: error.message.startsWith(String(status)) ? error.message : `${status} ${error.message}` });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: '500 Internal Server Error' });
  });
}
