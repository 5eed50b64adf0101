import { resolve } from 'node:path';
import { objectStoreConfig, type ObjectStoreConfig } from './storage/index.js';

export interface Config {
  /** Root of everything Tributary stores on disk: PGlite, repositories, uploads, sockets. */
  dataDir: string;
  port: number;
  host: string;
  /** postgres://… to use a PostgreSQL server; undefined means embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /** The URL users reach this instance at; clone URLs and web_url are built from it. */
  externalUrl: string;
  rootPassword: string | undefined;
  logLevel: string;
  /**
   * Trust X-Forwarded-* from a reverse proxy (TRIBUTARY_TRUST_PROXY=true or a
   * list of proxy addresses). Off by default: a directly exposed server must
   * not let clients choose their own address (sign-in throttling keys on it).
   */
  trustProxy: boolean | string;
  /**
   * Test-only fault injection: the merge step at which the process SIGKILLs itself
   * (domains/merge-requests/merging/merge-steps.ts). Read from TRIBUTARY_TEST_CRASH_AT only when
   * NODE_ENV=test, so it is inert in every other environment.
   */
  testCrashAt?: string;
  /**
   * Background job timing (platform/queue.ts): how long a claim lasts without a heartbeat
   * (TRIBUTARY_JOB_LEASE_SECONDS, default 30) and how often an idle worker looks for work that no
   * notification announces, such as a lease that ended (TRIBUTARY_JOB_POLL_MS, default 5000).
   */
  jobLeaseSeconds: number;
  jobPollMs: number;
  /** How long `POST /api/v4/jobs/request` is held when no job waits (TRIBUTARY_RUNNER_LONG_POLL_SECONDS, 50 as GitLab Workhorse). */
  runnerLongPollSeconds: number;
  /** Where job logs, artifacts and caches are kept: `<dataDir>/objects` or S3-compatible storage (platform/storage). */
  objectStore: ObjectStoreConfig;
}

/** Reads the environment once, at the composition root. Nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = overrides.port ?? Number(env.PORT ?? 8080);
  const host = overrides.host ?? env.HOST ?? '0.0.0.0';
  const dataDir = resolve(overrides.dataDir ?? env.TRIBUTARY_DATA_DIR ?? './data');
  return {
    dataDir,
    port,
    host,
    databaseUrl: overrides.databaseUrl ?? (env.DATABASE_URL || undefined),
    externalUrl: (overrides.externalUrl ?? env.TRIBUTARY_EXTERNAL_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    rootPassword: overrides.rootPassword ?? env.TRIBUTARY_ROOT_PASSWORD,
    logLevel: overrides.logLevel ?? env.LOG_LEVEL ?? 'info',
    trustProxy: overrides.trustProxy ?? parseTrustProxy(env.TRIBUTARY_TRUST_PROXY),
    jobLeaseSeconds: overrides.jobLeaseSeconds ?? positive(env.TRIBUTARY_JOB_LEASE_SECONDS, 30),
    jobPollMs: overrides.jobPollMs ?? positive(env.TRIBUTARY_JOB_POLL_MS, 5_000),
    runnerLongPollSeconds: overrides.runnerLongPollSeconds ?? positive(env.TRIBUTARY_RUNNER_LONG_POLL_SECONDS, 50),
    objectStore: overrides.objectStore ?? objectStoreConfig(env, dataDir),
    testCrashAt: overrides.testCrashAt ?? (env.NODE_ENV === 'test' ? env.TRIBUTARY_TEST_CRASH_AT || undefined : undefined),
  };
}

/** A positive number from the environment, or the default when unset or not one. */
function positive(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return value && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (!value || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  return value;
}
