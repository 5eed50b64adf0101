/**
 * The OpenAPI 3.1 description of the REST API, built from the routes as registered: each
 * route's path, its method and the input schema it declared (route.ts). Path parameters come
 * from the URL; the other parameters are query parameters of GET and DELETE, and the JSON
 * (or form) body of the writes, as clients send them (GitLab reads both the same way). Pure,
 * but for the Fastify hook that collects the routes.
 */
import type { FastifyInstance } from 'fastify';
import type { TObject } from '@sinclair/typebox';
import { INPUT_SCHEMA } from './route.js';

export interface RegisteredRoute {
  method: string;
  /** Fastify's URL, with the prefix: `/api/v4/projects/:id` */
  url: string;
  input?: TObject;
  summary?: string;
}

/** Collects every route registered on `api` from now on (Fastify keeps no list of its own). */
export function collectRoutes(api: FastifyInstance): RegisteredRoute[] {
  const collected: RegisteredRoute[] = [];
  api.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as Record<string, unknown>;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      collected.push({ method, url: route.url, input: config[INPUT_SCHEMA] as TObject | undefined, summary: config.summary as string | undefined });
    }
  });
  return collected;
}

type JsonSchema = Record<string, unknown>;

/** A plain JSON copy (TypeBox's symbol keys dropped). */
const plain = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema)) as JsonSchema;

/** `/api/v4/projects/:id/labels/:label_id` → `/projects/{id}/labels/{label_id}` under the prefix; a wildcard is `{path}`. */
export function openApiPath(url: string, prefix: string): { path: string; params: string[] } {
  const params: string[] = [];
  const rest = url.startsWith(prefix) ? url.slice(prefix.length) : url;
  const path = rest
    .replace(/:(\w+)(\([^)]*\))?/g, (_, name: string) => {
      params.push(name);
      return `{${name}}`;
    })
    .replace(/\*$/, () => {
      params.push('path');
      return '{path}';
    });
  return { path: path || '/', params };
}

function operation(route: RegisteredRoute, pathParams: string[]) {
  const input = route.input ? plain(route.input) : undefined;
  const properties = (input?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((input?.required ?? []) as string[]);
  const parameters: JsonSchema[] = pathParams.map((name) => ({ name, in: 'path', required: true, schema: properties[name] ?? { type: 'string' } }));
  const rest = Object.entries(properties).filter(([name]) => !pathParams.includes(name));
  const op: JsonSchema = { operationId: `${route.method.toLowerCase()} ${route.url}`, parameters, responses: { default: { description: 'GitLab’s entity, or `{"message": …}` / `{"error": …}` on failure' } } };
  if (route.summary) op.summary = route.summary;
  if (!route.input) op['x-input-declared'] = false;
  if (['GET', 'DELETE'].includes(route.method)) {
    for (const [name, schema] of rest) {
      const isHash = schema.type === 'object';
      parameters.push({ name, in: 'query', required: required.has(name), schema, ...(isHash ? { style: 'deepObject', explode: true } : {}) });
    }
  } else if (rest.length > 0) {
    const body = { type: 'object', properties: Object.fromEntries(rest), required: rest.map(([name]) => name).filter((name) => required.has(name)) };
    op.requestBody = { content: { 'application/json': { schema: body }, 'application/x-www-form-urlencoded': { schema: body } } };
  }
  return op;
}

export function openApiDocument(routes: readonly RegisteredRoute[], options: { prefix: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const { path, params } = openApiPath(route.url, options.prefix);
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, params);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Tributary REST API (GitLab API v4)', version: options.version },
    servers: [{ url: options.prefix }],
    paths,
  };
}
