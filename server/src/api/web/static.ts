import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** web/dist, relative to this file in both src/ and dist/. */
export const WEB_DIST = fileURLToPath(new URL('../../../../web/dist', import.meta.url));

/**
 * Serves the built web app. Client routes (`/group/project/-/tree/main`)
 * fall back to index.html; API and git URLs never do.
 */
export async function registerWebApp(app: FastifyInstance, root = WEB_DIST): Promise<boolean> {
  if (!existsSync(root)) {
    app.log.warn({ root }, 'web app not built; run `npm run build`');
    return false;
  }
  await app.register(fastifyStatic, { root, prefix: '/', wildcard: false, index: false, maxAge: '1h', immutable: false });
  app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  return true;
}

export function isClientRoute(url: string): boolean {
  return !url.startsWith('/api/') && !url.startsWith('/-/session') && !/\.git(\/|$)/.test(url.split('?')[0]!);
}
