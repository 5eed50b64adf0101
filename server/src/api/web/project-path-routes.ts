import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A project path is its namespace (at most 20 nested groups, GitLab's limit) and its own path. */
const MAX_PATH_SEGMENTS = 21;

export type ProjectPathHandler = (request: FastifyRequest, reply: FastifyReply, fullPath: string, params: Record<string, string>) => unknown;

/**
 * GitLab's web routes that start with a project's full path: `/:full_path/-/merge_requests/:iid/widget.json`,
 * `/:full_path/uploads/:secret/:filename`, `/:full_path/notes/:id/outdated_line_change`. The router cannot
 * put a wildcard before a fixed segment (git smart HTTP owns `/*`), so the route is registered once per
 * path depth, each a plain parametric route that costs nothing per request; the handler gets the
 * joined path and the suffix's own parameters.
 */
export function projectPathRoute(app: FastifyInstance, suffix: `/${string}`, handler: ProjectPathHandler): void {
  for (let depth = 2; depth <= MAX_PATH_SEGMENTS; depth++) {
    const segments = Array.from({ length: depth }, (_, i) => `:p${i}`);
    app.get(`/${segments.join('/')}${suffix}`, async (request, reply) => {
      const params = request.params as Record<string, string>;
      return handler(request, reply, segments.map((_, i) => params[`p${i}`]).join('/'), params);
    });
  }
}
