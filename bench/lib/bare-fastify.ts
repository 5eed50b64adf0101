import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Cleanup } from './cleanup.js';
import { BENCH_HOST, childEnv, freePort, spawnChild, waitFor200, type Child } from './process.js';
import { REPO_ROOT } from './tributary.js';

/**
 * The baseline server: Fastify 5 (the very copy the server depends on), no
 * plugins, no logger, answering GitLab paths with a JSON body held in
 * memory. It runs with `node -e`, in its own process like the server under
 * test, so both are measured the same way.
 */
const BARE_SERVER = `
const fastify = require(process.env.BENCH_FASTIFY)({ logger: false });
const body = JSON.parse(require('node:fs').readFileSync(process.env.BENCH_BODY_FILE, 'utf8'));
fastify.get('/api/v4/version', async () => ({ version: 'bare', revision: 'bare' }));
fastify.get('/api/v4/projects/:id', async () => body);
// more routes, each with its own body: { "<route>": <body> }
const routes = JSON.parse(require('node:fs').readFileSync(process.env.BENCH_ROUTES_FILE, 'utf8'));
for (const [route, routeBody] of Object.entries(routes)) fastify.get(route, async () => routeBody);
fastify.listen({ port: Number(process.env.PORT), host: process.env.HOST }).catch((error) => {
  console.error(error);
  process.exit(1);
});
process.once('SIGTERM', () => fastify.close().then(() => process.exit(0)));
`;

/** The Fastify the server resolves (server/node_modules, else hoisted). */
export function fastifyEntry(): string {
  return createRequire(join(REPO_ROOT, 'server', 'package.json')).resolve('fastify');
}

export interface BareServer {
  url: string;
  child: Child;
  /** ms from spawn to the first 200 from /api/v4/version */
  startupMs: number;
}

/** Starts the bare server and waits for its first 200, polling every 10 ms. */
export async function startBareFastify(cleanup: Cleanup, options: { dir: string; body?: unknown; routes?: Record<string, unknown>; name?: string }): Promise<BareServer> {
  const port = await freePort();
  const bodyFile = join(options.dir, 'bare-body.json');
  writeFileSync(bodyFile, JSON.stringify(options.body ?? {}));
  const routesFile = join(options.dir, 'bare-routes.json');
  writeFileSync(routesFile, JSON.stringify(options.routes ?? {}));
  const url = `http://${BENCH_HOST}:${port}`;
  const child = spawnChild(cleanup, {
    name: options.name ?? 'bare Fastify',
    command: process.execPath,
    args: ['-e', BARE_SERVER],
    env: childEnv({ BENCH_FASTIFY: fastifyEntry(), BENCH_BODY_FILE: bodyFile, BENCH_ROUTES_FILE: routesFile, PORT: String(port), HOST: BENCH_HOST }),
    cwd: REPO_ROOT,
    logFile: join(options.dir, `bare-${port}.log`),
  });
  const startupMs = await waitFor200(`${url}/api/v4/version`, { since: child.spawnedAt, child, timeoutMs: 30_000 });
  return { url, child, startupMs };
}
