import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gitlab } from '@gitbeaker/rest';
import type { App } from '../app.js';
import { loadConfig, type Config } from '../platform/config.js';
import { TEST_SERVER_TIMING } from './server-timing.js';
import type { Logger } from '../platform/logger.js';
import { startServer } from '../server.js';
import { availableScopes } from '../domains/tokens/tokens.service.js';
import { testDatabaseKind } from './database.js';
import { seedPgliteDir } from './pglite-template.js';
import { createTestDatabase, freePort } from './postgres-cluster.js';

/**
 * A real Tributary server for integration and browser tests: its own temp
 * data directory, its own database (PGlite in that directory, or a fresh
 * database on the test PostgreSQL server when TRIBUTARY_TEST_DB=postgres),
 * listening on 127.0.0.1 on a free port, with `root` and a root token ready.
 *
 *   const server = await startTestServer();
 *   afterAll(() => server.close());
 *   const api = gitbeakerClient(server.url, server.root.token);
 */

/** Every scope a personal access token can have. */
export const ALL_SCOPES = ['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'sudo', 'admin_mode', 'create_runner', 'manage_runner'];

export interface TestUser {
  id: number;
  username: string;
  password: string;
  /** A personal access token with the scopes asked for (by default all the user may have). */
  token: string;
}

export interface TestServer {
  /** http://127.0.0.1:<port>, also the server's external URL. */
  url: string;
  root: TestUser;
  dataDir: string;
  config: Config;
  /** The running app: its services and database, for setting up state directly. */
  app: App;
  /** Creates a user (through the users service, as the CLI does) and a token for it. */
  createUser(input?: { username?: string; name?: string; email?: string; password?: string; admin?: boolean; scopes?: string[] }): Promise<TestUser>;
  /** Creates another token for an existing user. */
  createToken(userId: number, options?: { name?: string; scopes?: string[]; expiresAt?: string }): Promise<string>;
  /** Stops the server, drops its database and removes its data directory. Safe to call twice. */
  close(): Promise<void>;
}

export interface StartTestServerOptions {
  /** Config values to use instead of the harness's (port, host and dataDir are chosen here unless given; the waits default to TEST_SERVER_TIMING). */
  config?: Partial<Config>;
  logger?: Logger;
  /** Keep the data directory after close() (also: TRIBUTARY_TEST_KEEP_DATA=1), for debugging. */
  keepDataDir?: boolean;
}

/** A random password that any password rule accepts: long, mixed case, digits. */
export function strongPassword(): string {
  return `Tr1-${randomBytes(18).toString('base64url')}`;
}

let userCounter = 0;

export async function startTestServer(options: StartTestServerOptions = {}): Promise<TestServer> {
  // Short: the admin Unix socket lives in <dataDir>/run/ and socket paths are limited to ~100 bytes.
  const dataDir = options.config?.dataDir ?? mkdtempSync(join(tmpdir(), 'trsv-'));
  const keep = options.keepDataDir ?? process.env.TRIBUTARY_TEST_KEEP_DATA === '1';
  const rootPassword = options.config?.rootPassword ?? strongPassword();
  const cleanups: (() => Promise<void> | void)[] = [];
  if (!keep && !options.config?.dataDir) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 }));

  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  };

  try {
    let databaseUrl = options.config?.databaseUrl;
    if (!databaseUrl && testDatabaseKind() === 'postgres') {
      const database = await createTestDatabase(undefined, { migrated: true });
      databaseUrl = database.url;
      cleanups.push(() => database.drop());
    }
    // Skip PGlite's slow initdb: start from a copy of an initialised data directory.
    if (!databaseUrl) await seedPgliteDir(join(dataDir, 'pglite'));

    let running: Awaited<ReturnType<typeof startServer>> | undefined;
    let config: Config | undefined;
    for (let attempt = 0; !running; attempt++) {
      const host = options.config?.host ?? '127.0.0.1';
      const port = options.config?.port ?? (await freePort(host));
      // The ambient environment (DATABASE_URL, PORT, …) never leaks into a test server.
      config = loadConfig(
        {},
        {
          logLevel: process.env.TRIBUTARY_TEST_LOG_LEVEL ?? 'warn',
          externalUrl: `http://${host}:${port}`,
          ...TEST_SERVER_TIMING,
          ...options.config,
          dataDir,
          host,
          port,
          databaseUrl,
          rootPassword,
        },
      );
      try {
        running = await startServer(config, options.logger ? { logger: options.logger } : {});
      } catch (error) {
        // Someone took the port between freePort() and listen(): pick another.
        if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 4 && !options.config?.port) continue;
        throw error;
      }
    }
    const server = running;
    cleanups.push(() => server.close());

    const { services } = server.app;
    const createToken: TestServer['createToken'] = async (userId, tokenOptions = {}) => {
      // By default every scope the user may have (the admin scopes only for administrators).
      const owner = tokenOptions.scopes ? null : await services.usersRepository.findById(userId);
      const created = await services.tokens.create(null, userId, {
        name: tokenOptions.name ?? 'test',
        scopes: tokenOptions.scopes ?? availableScopes({ is_admin: owner?.is_admin === true }),
        expires_at: tokenOptions.expiresAt ?? null,
      });
      return created.token;
    };

    const rootUser = await services.usersRepository.findByUsername('root');
    if (!rootUser) throw new Error('startServer() did not create the root user');
    const root: TestUser = { id: rootUser.id, username: 'root', password: rootPassword, token: await createToken(rootUser.id, { name: 'test-root' }) };

    let closing: Promise<void> | undefined;
    return {
      url: server.url,
      root,
      dataDir,
      config: config!,
      app: server.app,
      async createUser(input = {}) {
        const username = input.username ?? `user${process.pid}x${++userCounter}`;
        const password = input.password ?? strongPassword();
        const user = await services.users.create(null, {
          username,
          name: input.name ?? username,
          email: input.email ?? `${username}@example.com`,
          password,
          admin: input.admin ?? false,
        });
        return { id: user.id, username: user.username, password, token: await createToken(user.id, { scopes: input.scopes }) };
      },
      createToken,
      close() {
        closing ??= cleanUp();
        return closing;
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/* -------------------------------------------------------------------- clients */

/** The GitLab API client from npm, pointed at a test server. */
export function gitbeakerClient(url: string, token: string): Gitlab<false> {
  // camelize is off (gitbeaker's default): responses keep GitLab's snake_case field names
  return new Gitlab<false>({ host: url, token });
}

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface GitCli {
  /** A temp directory to clone into. HOME is a temp directory beside it, so no user or system git config applies. */
  dir: string;
  /** `<server>/<path>.git`, without credentials (they come from GIT_ASKPASS). */
  repoUrl(projectPath: string): string;
  /**
   * Runs `git <args>` (in `dir` unless `cwd` is given; a relative cwd is inside `dir`).
   * Throws with git's stderr when git fails, unless `allowFailure`.
   */
  git(args: string[], options?: { cwd?: string; input?: string; allowFailure?: boolean; env?: Record<string, string> }): Promise<GitResult>;
  close(): Promise<void>;
}

/**
 * The stock `git` client with credentials for a test server. Credentials reach
 * git through GIT_ASKPASS and environment variables of the git process only:
 * nothing is written to any git config, and credential helpers are disabled.
 * A token works as the password (any username), as with GitLab.
 */
export function gitCli(options: { url: string; username: string; password: string; name?: string; email?: string }): GitCli {
  // base/ holds HOME, the askpass script and the config; base/work is where git runs.
  const base = mkdtempSync(join(tmpdir(), 'trgit-'));
  const dir = join(base, 'work');
  mkdirSync(dir);
  const askpass = join(base, 'askpass.sh');
  writeFileSync(
    askpass,
    '#!/bin/sh\ncase "$1" in\n  Username*) printf \'%s\\n\' "$TRIBUTARY_GIT_USERNAME" ;;\n  *) printf \'%s\\n\' "$TRIBUTARY_GIT_PASSWORD" ;;\nesac\n',
  );
  chmodSync(askpass, 0o700);
  const globalConfig = join(base, '.gitconfig');
  const name = options.name ?? options.username;
  const email = options.email ?? `${options.username}@example.com`;
  writeFileSync(globalConfig, `[user]\n\tname = ${name}\n\temail = ${email}\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n`);

  const baseEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: base,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TZ: 'UTC',
    GIT_CONFIG_GLOBAL: globalConfig,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: askpass,
    SSH_ASKPASS: askpass,
    TRIBUTARY_GIT_USERNAME: options.username,
    TRIBUTARY_GIT_PASSWORD: options.password,
  };

  return {
    dir,
    repoUrl: (projectPath) => `${options.url.replace(/\/+$/, '')}/${projectPath.replace(/^\/+|\.git$/g, '')}.git`,
    git(args, runOptions = {}) {
      const cwd = runOptions.cwd ? (runOptions.cwd.startsWith('/') ? runOptions.cwd : join(dir, runOptions.cwd)) : dir;
      return new Promise((resolve, reject) => {
        const child = execFile(
          'git',
          ['-c', 'credential.helper=', ...args],
          { cwd, env: { ...baseEnv, ...runOptions.env }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
            if (error && !runOptions.allowFailure) {
              reject(new Error(`git ${args.join(' ')} failed (exit ${code}):\n${stderr || error.message}`));
              return;
            }
            resolve({ stdout, stderr, code });
          },
        );
        // git may exit before reading its input; that EPIPE is not the failure to report.
        child.stdin?.on('error', () => undefined);
        child.stdin?.end(runOptions.input ?? '');
      });
    },
    async close() {
      rmSync(base, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
