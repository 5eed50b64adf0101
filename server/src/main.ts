#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from './platform/config.js';
import { migrate } from './platform/db/migrate.js';
import { ownerPid, socketPath } from './platform/process-lock.js';
import { DomainError } from './platform/errors.js';
import type { CreateTokenCommand, CreateUserCommand } from './admin/admin-server.js';
import { callAdminSocket } from './admin/admin-client.js';
import { openDatabaseFor } from './platform/db/open.js';

const USAGE = `Usage: tributary <command>

  start                         serve Tributary (web app, API, git over HTTP, workers)
  migrate                       apply database migrations
  user create --username U --password P [--name N] [--email E] [--admin]
  token create --user U --name N --scopes api[,read_api,…] [--expires-at YYYY-MM-DD]
                                prints the new personal access token
  runner --url URL --token glrt-… [--concurrent N] [--builds-dir DIR] [--executor shell|docker] [--name N]
                                run CI jobs for a Tributary (or GitLab) server

Environment: TRIBUTARY_DATA_DIR (./data), PORT (8080), DATABASE_URL (embedded PGlite when unset),
TRIBUTARY_ROOT_PASSWORD (first start), TRIBUTARY_EXTERNAL_URL, LOG_LEVEL,
TRIBUTARY_LOCAL_RUNNER=shell|docker (start also runs one CI runner; off by default).`;

/**
 * What `start` loads before it opens the database is kept small (no static import of the logger,
 * the local runner or anything else that pulls in Fastify): the embedded database's thread starts
 * only after this module's static imports have loaded, and everything else loads beside it.
 */
async function start(config: Config): Promise<void> {
  if (!config.databaseUrl && !existsSync(join(config.dataDir, 'pglite', 'PG_VERSION'))) await createEmbeddedDatabase();
  // Open the database first: PGlite's start-up overlaps with loading the server's modules.
  const database = openDatabaseFor(config);
  const { startServer } = await import('./server.js');
  const server = await startServer(config, { database });
  console.log(`Tributary is running at ${server.url} (database: ${config.databaseUrl ? 'PostgreSQL server' : 'embedded PGlite'})`);
  if (server.generatedRootPassword) {
    console.log(`\nCreated the administrator "root" with the password:\n\n    ${server.generatedRootPassword}\n\nIt is shown only this once.`);
  }
  const localRunners = process.env.TRIBUTARY_LOCAL_RUNNER ? await import('./local-runner.js') : undefined;
  const executor = localRunners?.localRunnerExecutor(process.env.TRIBUTARY_LOCAL_RUNNER);
  const localRunner = localRunners && executor ? await localRunners.startLocalRunner({ app: server.app, url: server.url, dataDir: config.dataDir, executor }) : undefined;
  if (executor) console.log(`A local runner (${executor} executor) runs CI jobs; its scripts run with this server's rights.`);
  const stop = async () => {
    // the runner first: it reports its running jobs while the server can still record them
    await localRunner?.stop();
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * A first start creates and migrates the embedded database with `tributary migrate` in a child
 * process, then opens it as on any restart. PGlite's initdb and the migrations grow its
 * WebAssembly memory far beyond what serving needs; a WebAssembly memory never shrinks, and
 * what an ended thread frees stays in the C library's arenas. Done in the server's process, a
 * first start idled at ~750 MB until the next restart (npm run bench: first-start-memory).
 * It costs a first start one more PGlite start, about half a second.
 */
async function createEmbeddedDatabase(): Promise<void> {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, 'migrate'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`the embedded database could not be created (tributary migrate exited with ${code})`);
}

/**
 * Runs an administrative command: through the running server's admin
 * socket when one owns the data directory (PGlite belongs to one process),
 * otherwise directly against the database.
 */
type AdminCommands = typeof import('./admin/admin-server.js').adminCommands;

async function administer<T>(config: Config, path: string, body: unknown, direct: (commands: AdminCommands, app: Parameters<AdminCommands['createUser']>[0]) => Promise<T>): Promise<T> {
  const owner = config.databaseUrl ? undefined : ownerPid(config.dataDir);
  if (owner) {
    const response = await callAdminSocket<T & { message?: unknown }>(socketPath(config.dataDir, owner), 'POST', path, body);
    if (response.status >= 400) throw new Error(formatMessage(response.body?.message));
    return response.body;
  }
  const { db, release } = await openDatabaseFor(config);
  try {
    await migrate(db);
    const [{ createServices }, { adminCommands }, { createGitRepositoryStorage }, { createLogger }] = await Promise.all([
      import('./app.js'),
      import('./admin/admin-server.js'),
      import('./domains/projects/git-repository-storage.js'),
      import('./platform/logger.js'),
    ]);
    const storage = createGitRepositoryStorage({ dataDir: config.dataDir });
    const { services } = createServices({ config, db, logger: createLogger('warn'), storage, internalSocket: socketPath(config.dataDir) });
    return await direct(adminCommands, { services });
  } finally {
    await db.close();
    release();
  }
}

function formatMessage(message: unknown): string {
  if (typeof message === 'string') return message;
  if (message && typeof message === 'object') {
    return Object.entries(message as Record<string, string[]>)
      .map(([field, errors]) => `${field} ${errors.join(', ')}`)
      .join('; ');
  }
  return 'command failed';
}

async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  if (command === 'runner') {
    // The runner is a client of the HTTP API only: it loads no server configuration or database.
    const { runnerCommand } = await import('./runner/cli.js');
    return runnerCommand(argv.slice(1));
  }
  const config = loadConfig();
  if (command === 'start') {
    await start(config);
    return -1;
  }
  if (command === 'migrate') {
    const { db, release } = await openDatabaseFor(config);
    const applied = await migrate(db).finally(async () => {
      await db.close();
      release();
    });
    console.log(applied.length ? `Applied ${applied.join(', ')}` : 'Database is up to date');
    return 0;
  }
  if (command === 'user' && sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: { username: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' }, email: { type: 'string' }, admin: { type: 'boolean' } },
    });
    if (!values.username || !values.password) throw new Error('--username and --password are required');
    const body: CreateUserCommand = { username: values.username, password: values.password, name: values.name, email: values.email, admin: values.admin };
    const user = await administer(config, '/users', body, (commands, app) => commands.createUser(app, body));
    console.log(`Created user ${user.username} (id ${user.id})`);
    return 0;
  }
  if (command === 'token' && sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: { user: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' }, 'expires-at': { type: 'string' } },
    });
    if (!values.user || !values.name || !values.scopes) throw new Error('--user, --name and --scopes are required');
    const body: CreateTokenCommand = { user: values.user, name: values.name, scopes: values.scopes.split(','), expires_at: values['expires-at'] };
    const token = await administer(config, '/tokens', body, (commands, app) => commands.createToken(app, body));
    console.log(token.token);
    return 0;
  }
  console.error(USAGE);
  return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    console.error(`tributary: ${error instanceof DomainError ? formatMessage(error.body) : error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
