import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from './platform/config.js';
import { openDatabaseFor, type OpeningDatabase } from './platform/db/open.js';
import { migrate } from './platform/db/migrate.js';
import { createLogger, flushLogger, type Logger } from './platform/logger.js';
import { socketPath } from './platform/process-lock.js';
import { buildApp, createServices, type App, type ComposedServices } from './app.js';
import { createGitRepositoryStorage } from './domains/projects/git-repository-storage.js';
import { ensureRootUser } from './domains/users/root-user.js';
import { buildAdminServer } from './admin/admin-server.js';
import { createGitHttpRoutes } from './api/git-http/routes.js';
import { createHookSessions } from './api/git-http/hook-sessions.js';
import { hookRoutes } from './api/git-http/hook-routes.js';

/** How long after listening the server warms up: past the burst of a start's first requests. */
const WARM_UP_DELAY_MS = 1_000;

export interface RunningServer {
  url: string;
  app: App;
  /** the owner-only Unix socket the CLI and git hooks talk to */
  socketPath: string;
  /** set when this start created root with a generated password */
  generatedRootPassword?: string;
  close(): Promise<void>;
}

/**
 * Starts Tributary: takes the data directory (embedded database only),
 * opens and migrates the database, creates root on first start, builds the
 * app, starts workers and event delivery, and listens on TCP for users and
 * on a Unix socket for the CLI and git hooks.
 */
export async function startServer(config: Config, options: { logger?: Logger; database?: OpeningDatabase } = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const { db, release } = await (options.database ?? openDatabaseFor(config));
  const internalSocket = socketPath(config.dataDir);
  const storage = createGitRepositoryStorage({ dataDir: config.dataDir });
  const hookSessions = createHookSessions();
  const deps = { config, db, logger, storage, internalSocket };
  let composed: ComposedServices;
  try {
    composed = createServices(deps);
  } catch (error) {
    await db.close();
    release();
    throw error;
  }
  let stopWatchingWrites: (() => Promise<void>) | undefined;
  let generatedRootPassword: string | undefined;
  // Building the app asks nothing of the database, so it runs while the embedded one is still
  // starting on its thread (platform/db/pglite.ts). What the start asks of the database needs
  // only the services, so it runs on the database's thread while the routes register.
  const databaseStart = migrate(db).then(async () => {
    generatedRootPassword = await ensureRootUser(composed.services.users, config.rootPassword);
    await composed.events.start();
    stopWatchingWrites = await composed.writeWatch.start();
    // Merges a killed process left half done end merged or open before anyone is served
    // (after event delivery starts, so the push events it records reach this process too).
    await composed.services.reconcileMerges();
    // Every merge train is walked once: a train merge a killed process left half done is settled there.
    await composed.services.reconcileMergeTrains();
  });
  // Fastify's ready (its plugin tree booted, Mercurius' schema check) is main-thread work too: done
  // here, beside the database's, instead of inside listen() after it.
  const built = buildApp(deps, [createGitHttpRoutes({ hookSessions, internalSocket })], composed).then(async (app) => {
    await app.http.ready();
    return app;
  });
  const [appBuilt, databaseStarted] = await Promise.allSettled([built, databaseStart]);
  if (appBuilt.status === 'rejected' || databaseStarted.status === 'rejected') {
    if (appBuilt.status === 'fulfilled') await appBuilt.value.http.close().catch(() => undefined);
    await composed.events.stop().catch(() => undefined);
    await stopWatchingWrites?.().catch(() => undefined);
    await db.close();
    release();
    throw appBuilt.status === 'rejected' ? appBuilt.reason : (databaseStarted as PromiseRejectedResult).reason;
  }
  const app: App = appBuilt.value;
  let admin: Awaited<ReturnType<typeof buildAdminServer>> | undefined;
  let warmUp: NodeJS.Timeout | undefined;
  let settling: NodeJS.Timeout | undefined;
  let stopping = false;
  /** Stops whatever has started, in the reverse order: for close(), and for a start that fails half way (no port or data directory left held). */
  async function shutDown(): Promise<void> {
    stopping = true;
    clearTimeout(warmUp);
    clearTimeout(settling);
    await admin?.close();
    // Long-polling job requests answer 204 now instead of holding the close for up to 50 s.
    await app.services.jobQueueSignal.stop();
    await app.http.close();
    await app.queue.stop();
    await app.events.stop();
    await stopWatchingWrites?.();
    await db.close();
    rmSync(internalSocket, { force: true });
    release();
    flushLogger(logger);
  }

  let port = config.port;
  try {
    await app.http.listen({ port: config.port, host: config.host });
    // Jobs start once the server listens: a start does not wait for their first claim.
    await app.queue.start();
    await app.retention.schedule();
    await app.services.stuckJobs.schedule();
    await app.pipelineScheduleRunner.schedule();
    // Merges another server on this database died in are settled by the survivors, within seconds.
    const settleAbandonedMerges = () => {
      settling = setTimeout(() => {
        app.services
          .reconcileMerges()
          .catch((error: unknown) => logger.warn({ err: error }, 'settling abandoned merges failed'))
          .finally(() => {
            if (!stopping) settleAbandonedMerges();
          });
      }, config.jobPollMs);
      settling.unref();
    };
    settleAbandonedMerges();
    const address = app.http.server.address();
    if (typeof address === 'object' && address) port = address.port;

    mkdirSync(dirname(internalSocket), { recursive: true, mode: 0o700 });
    chmodSync(dirname(internalSocket), 0o700);
    rmSync(internalSocket, { force: true });
    admin = await buildAdminServer({ app, logger, plugins: [hookRoutes(hookSessions)] });
    await admin.listen({ path: internalSocket });
    chmodSync(internalSocket, 0o600);
  } catch (error) {
    await shutDown().catch((failure: unknown) => logger.warn({ err: failure }, 'stopping after a failed start failed'));
    throw error;
  }

  // What the first requests would otherwise pay for, once the start is over (not in its way).
  warmUp = setTimeout(() => void app.warmUp().catch((error: unknown) => logger.warn({ err: error }, 'warming up after the start failed')), WARM_UP_DELAY_MS);
  warmUp.unref();

  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  let closed = false;
  return {
    url: `http://${host}:${port}`,
    app,
    socketPath: internalSocket,
    generatedRootPassword,
    async close() {
      if (closed) return;
      closed = true;
      await shutDown();
    },
  };
}
