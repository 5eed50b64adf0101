import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '../../platform/errors.js';

/**
 * No input reaches the database unchecked. One check for every HTTP surface (REST, the web
 * app's calls, GraphQL, git over HTTP), before any route or authentication reads the request:
 *
 * - a NUL byte in any path segment, query or body string (or key) is a 400: PostgreSQL text
 *   cannot hold one, and GitLab refuses it too (its HandleMalformedStrings middleware);
 * - an id in the path (`:id`, `:merge_request_iid`, `:note_id`, …) made of digits beyond
 *   the integers ids can be is a 404, as GitLab answers for an id that does not exist (on routes
 *   without a declared input: a REST route's declared schema checks its own path ids);
 * - a JSON number that is a whole number beyond the safe integers (`"user_id": 1e20`) is a
 *   400: no id or count is that large, and it cannot be represented exactly.
 *
 * Pure checks below; registerInputGuard hooks them into Fastify (path and query when the
 * request arrives, the body once it is parsed).
 */

const NUL = '\u0000';
/** Path parameters that name a record by number. */
const ID_PARAM = /(?:^|_)i?id$/;
/** Nesting beyond this is not looked into further (bodies are size-limited already). */
const MAX_DEPTH = 32;

/** The 4xx an input deserves. */
export type InputProblem = ValidationError | NotFoundError;

const invalid = (key: string) => new ValidationError(`400 (Bad request) "${key}" is invalid`);

/** Path parameters: NUL anywhere is a 400, a numeric id out of range a 404 (unless the route's schema checks its ids). */
export function pathParamsProblem(params: unknown, options: { ids: boolean } = { ids: true }): InputProblem | null {
  if (!params || typeof params !== 'object') return null;
  for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
    if (typeof value !== 'string') continue;
    if (value.includes(NUL)) return invalid(name === '*' ? 'path' : name);
    if (options.ids && ID_PARAM.test(name) && /^\d+$/.test(value) && !Number.isSafeInteger(Number(value))) return new NotFoundError();
  }
  return null;
}

function isPlainContainer(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Query or body values (nested objects and arrays): NUL in a string or key, or an unsafe whole number, is a 400 naming the top-level key. */
export function valuesProblem(values: unknown): InputProblem | null {
  if (!values || typeof values !== 'object' || !isPlainContainer(values)) return null;
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    if (key.includes(NUL) || !clean(value, 0)) return invalid(key.replaceAll(NUL, ''));
  }
  return null;
}

function clean(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return !value.includes(NUL);
  if (typeof value === 'number') return !Number.isInteger(value) || Number.isSafeInteger(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH || !isPlainContainer(value)) return true;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes(NUL) || !clean(item, depth + 1)) return false;
  }
  return true;
}

/** `\u0000` (or `\u{0}`) written as an escape inside GraphQL or JSON text, which its parser turns into a NUL. */
const ESCAPED_NUL = /\\u(?:0000|\{0+\})/i;

/**
 * GraphQL's documents and GET variables are text parsed after this guard: a NUL written as an
 * escape in them (`fullPath: "a\u0000b"`) is refused like a NUL anywhere else.
 */
export function graphqlTextProblem(values: unknown): InputProblem | null {
  if (!values || typeof values !== 'object') return null;
  for (const key of ['query', 'variables'] as const) {
    const text = (values as Record<string, unknown>)[key];
    if (typeof text === 'string' && ESCAPED_NUL.test(text)) return invalid(key);
  }
  return null;
}

/**
 * The hooks answer by themselves (GitLab's status and `{"message": …}`) rather than throw, so
 * that plugins with error handlers of their own (GraphQL's) answer bad input alike.
 */
export function registerInputGuard(http: FastifyInstance, options: { declaresInput: (request: FastifyRequest) => boolean }): void {
  const refuse = (reply: FastifyReply, problem: InputProblem) => reply.status(problem.status).send({ message: problem.body });
  http.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const problem = pathParamsProblem(request.params, { ids: !options.declaresInput(request) }) ?? valuesProblem(request.query);
    if (problem) return refuse(reply, problem);
  });
  http.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    const problem = valuesProblem(request.body);
    if (problem) return refuse(reply, problem);
  });
}

/** The GraphQL endpoint's own check (graphqlTextProblem), registered in its plugin. */
export function registerGraphqlInputGuard(graphql: FastifyInstance): void {
  graphql.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    const problem = graphqlTextProblem(request.body) ?? graphqlTextProblem(request.query);
    if (problem) return reply.status(problem.status).send({ message: problem.body });
  });
}
