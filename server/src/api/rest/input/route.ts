/**
 * How a REST route declares its input: `routes(app).post(url, Input({...}), handler)`. The
 * handler receives the path, query and body parameters merged and coerced (coerce.ts), typed
 * from the schema; bad input never reaches it (400 `{"error": …}`, or 404 for a path id out of
 * range). The schema is kept in the route's config, where the OpenAPI description reads it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Static, TObject } from '@sinclair/typebox';
import { coerceInput, mergeInput } from './coerce.js';

/** What a route may set beside its input (Fastify's options; `config` reaches hooks). */
export type DeclaredRouteOptions = Pick<RouteShorthandOptions, 'bodyLimit'> & { config?: Record<string, unknown>; summary?: string };

export type DeclaredHandler<S extends TObject> = (input: Static<S>, request: FastifyRequest, reply: FastifyReply) => unknown;

/** The route config key holding the declared input schema. */
export const INPUT_SCHEMA = 'inputSchema';

export function declaredInput(request: FastifyRequest): TObject | undefined {
  return (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[INPUT_SCHEMA] as TObject | undefined;
}

/** Reads a request's input against a schema: what the declared routes' handlers receive. */
export function readInput<S extends TObject>(schema: S, request: FastifyRequest): Static<S> {
  return coerceInput<Static<S>>(schema, mergeInput(request.params, request.query, request.body));
}

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface DeclaredRoutes {
  get<S extends TObject>(url: string, input: S, handler: DeclaredHandler<S>, options?: DeclaredRouteOptions): void;
  head<S extends TObject>(url: string, input: S, handler: DeclaredHandler<S>, options?: DeclaredRouteOptions): void;
  post<S extends TObject>(url: string, input: S, handler: DeclaredHandler<S>, options?: DeclaredRouteOptions): void;
  put<S extends TObject>(url: string, input: S, handler: DeclaredHandler<S>, options?: DeclaredRouteOptions): void;
  patch<S extends TObject>(url: string, input: S, handler: DeclaredHandler<S>, options?: DeclaredRouteOptions): void;
  delete<S extends TObject>(url: string, input: S, handler: DeclaredHandler<S>, options?: DeclaredRouteOptions): void;
}

/** The route registrar every REST route module uses. */
export function routes(app: FastifyInstance): DeclaredRoutes {
  const add =
    (method: Method) =>
    <S extends TObject>(url: string, input: S, handler: DeclaredHandler<S>, options: DeclaredRouteOptions = {}) => {
      const { config, summary, ...rest } = options;
      app.route({
        method,
        url,
        ...rest,
        config: { ...config, [INPUT_SCHEMA]: input, ...(summary ? { summary } : {}) },
        handler: async (request, reply) => handler(readInput(input, request), request, reply),
      });
    };
  return { get: add('GET'), head: add('HEAD'), post: add('POST'), put: add('PUT'), patch: add('PATCH'), delete: add('DELETE') };
}
