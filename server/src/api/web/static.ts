import { existsSync, readdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WEB_DIST } from '../../platform/paths.js';
import { APP_SHELL_SECURITY_HEADERS, ASSET_SECURITY_HEADERS } from './security-headers.js';

/** Vite fingerprints everything under assets/, so those files never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function isClientRoute(url: string): boolean {
  return !url.startsWith('/api/') && !url.startsWith('/-/session') && !/\.git(\/|$)/.test(url.split('?')[0]!);
}

/**
 * Serves the built web app from the 404 fallback: a request that no API or
 * git route took gets the built file of that name if there is one, else, for
 * a client route (`/group/project/-/tree/main`), index.html. The file list is
 * read once at start, so no route per file is registered and no request can
 * name a path outside web/dist.
 */
export async function registerWebApp(app: FastifyInstance, root = WEB_DIST): Promise<(request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined> {
  if (!existsSync(root)) {
    app.log.warn({ root }, 'web app not built; run `npm run build`');
    return () => undefined;
  }
  // cacheControl: false, or @fastify/send writes its own `public, max-age=0` over the header set
  // below, and every returning visit revalidates each of the app's dozens of files.
  await app.register(fastifyStatic, { root, serve: false, cacheControl: false });
  const scan = () =>
    new Set(readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => `${entry.parentPath.slice(root.length)}/${entry.name}`.replace(/^\/+/, '/')));
  let files = scan();
  let scannedAt = Date.now();
  // A rebuild while the server runs renames the assets: re-read the list when an asset is missing, at
  // most once a second. Client routes (`/group/project`) are never files and never cause a re-read.
  const has = (path: string) => {
    if (!files.has(path) && path.startsWith('/assets/') && Date.now() - scannedAt > 1_000) {
      files = scan();
      scannedAt = Date.now();
    }
    return files.has(path);
  };
  return (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const path = request.url.split('?')[0]!;
    if (path !== '/index.html' && has(path)) {
      return reply.headers(ASSET_SECURITY_HEADERS).header('cache-control', path.startsWith('/assets/') ? IMMUTABLE : 'public, max-age=3600').sendFile(path.slice(1));
    }
    // A missing fingerprinted asset is a 404, not the app shell (a stale page must not load HTML as a script).
    if (path.startsWith('/assets/')) return undefined;
    if (isClientRoute(request.url)) return reply.headers(APP_SHELL_SECURITY_HEADERS).header('cache-control', 'no-cache').sendFile('index.html');
    return undefined;
  };
}
