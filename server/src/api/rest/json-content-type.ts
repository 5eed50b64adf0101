import type { FastifyInstance } from 'fastify';

/**
 * GitLab's REST API (Grape) answers JSON as exactly `application/json`, without a
 * `charset` parameter, and clients compare the header as a string: python-gitlab
 * before 3.14 refuses an answer whose type is `application/json; charset=utf-8`.
 * Fastify adds the parameter to every object it serialises, so every answer under
 * /api/v4 (routes, errors, 404s) has it taken off. GitLab's Rails controllers,
 * /api/graphql among them, keep `application/json; charset=utf-8`, and so do ours.
 */
export function gitlabJsonContentType(url: string, contentType: string | undefined): string | undefined {
  if (contentType === undefined || !isRestApiPath(url)) return undefined;
  const [mediaType] = contentType.split(';', 1);
  return mediaType!.trim().toLowerCase() === 'application/json' && mediaType !== contentType ? 'application/json' : undefined;
}

function isRestApiPath(url: string): boolean {
  return url === '/api/v4' || url.startsWith('/api/v4/') || url.startsWith('/api/v4?');
}

/** Registered on the root instance before any route, so it covers every route, error and 404. */
export function registerGitlabJsonContentType(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const type = gitlabJsonContentType(request.url, reply.getHeader('content-type') as string | undefined);
    if (type) reply.header('content-type', type);
    return payload;
  });
}
