import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * All of Tributary's tests, in four projects:
 *
 *   unit                  pure and in-process tests beside the code (*.test.ts), not isolated
 *   unit-isolated         the few unit files that mock a module (UNIT_ISOLATED), isolated
 *   integration-postgres  every *.int.test.ts and server/test/** file against a real
 *                         PostgreSQL server (a throwaway cluster started by the global
 *                         setup, or DATABASE_URL)
 *   integration-pglite    against embedded PGlite: the files whose behaviour depends on
 *                         the engine (ENGINE_DEPENDENT) and a smoke pass (PGLITE_SMOKE)
 *   e2e                   browser tests (Playwright + Chromium) on PGlite, two files at a
 *                         time, after everything else has finished
 *
 * Why the split: both engines are PostgreSQL, so a query that works on one works on the
 * other; what differs is around the queries: one connection (PGlite, in the test's own
 * process) against a pool of real ones, notifications, caches, migrations, concurrency,
 * crashes and restarts. Those files run on both. The rest runs in full on PostgreSQL,
 * because there an integration file costs ~40% less CPU (measured on six files, one worker,
 * two pairs of back-to-back runs: 24 s against 40 s and 20 s against 32 s, the cluster's CPU
 * counted; PGlite's WebAssembly and its file system run in the test worker)
 * and races between connections are real; PGlite, what most users run, still serves every
 * browser test. See docs/testing.md.
 *
 * Given a file filter (`npx vitest run --project integration-pglite path/to/x.int.test.ts`),
 * or TRIBUTARY_TEST_ENGINES=all, both integration projects take every integration file.
 *
 * `npm test` (scripts/test.mjs) runs them all; `npx vitest run --project unit` runs one.
 * CI machines have 2 cores: two workers by default, TRIBUTARY_TEST_WORKERS overrides.
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const workers = Number(process.env.TRIBUTARY_TEST_WORKERS) || Math.min(4, Math.max(2, availableParallelism()));

/** Passwords hashed in test workers use a cheap scrypt cost (see useCheapPasswordHashesForTests). */
const cheapPasswordHashes = here('server/src/test-support/cheap-password-hashes.ts');

/** Builds the cached PGlite template once per run instead of once per worker. */
const pgliteSetup = here('server/src/test-support/pglite-global-setup.ts');

const integrationFiles = ['server/src/**/*.int.test.ts', 'server/test/**/*.test.ts'];

/**
 * Integration files whose behaviour depends on the database engine; they run on both. A file
 * whose name says queue, event, cache, migrat(ion), concurren(cy) or crash is one by its name
 * (name a new such file so, or add it below with the reason).
 */
export const ENGINE_DEPENDENT = [
  'server/src/**/*{queue,event,cache,migrat,concurren,crash}*.int.test.ts',
  'server/test/**/*{queue,event,cache,migrat,concurren,crash}*.test.ts',
  // the database adapters themselves: transactions, LISTEN/NOTIFY, migrations, errors
  'server/src/platform/db/database.int.test.ts',
  // table-write notifications (a trigger's NOTIFY) that invalidate caches
  'server/src/platform/db/write-watch.int.test.ts',
  // events delivered to GraphQL subscribers through notifications
  'server/src/api/graphql/subscriptions.int.test.ts',
  // iids handed out to concurrent creations, two racing requests for one branch pair
  'server/src/api/rest/routes/merge-requests/merge-requests.int.test.ts',
  // version refresh jobs run twice at once, through the queue
  'server/src/api/rest/routes/merge-requests/versions.int.test.ts',
  // CI/CD job transitions racing on one job (the pipeline row lock, compare-and-swap), pipelines created by queue jobs
  'server/src/domains/pipelines/pipelines.int.test.ts',
  // the test server and the real `tributary start` on each engine: data directory, migrations, restart
  'server/src/test-support/server.int.test.ts',
  'server/test/server-start.test.ts',
  // the CLI on a data directory (PGlite's files) or a database no server is running on
  'server/test/api-users-and-tokens.test.ts',
  // follow-up jobs written in the event's transaction, with LISTEN connections dropped
  'server/test/follow-up-work.test.ts',
  // the retention job: one schedule however many processes start
  'server/src/platform/retention.int.test.ts',
];

/** A smoke pass on PGlite through the main surfaces: REST, git over HTTP, merging, notes. */
export const PGLITE_SMOKE = [
  'server/test/api-groups-projects-members.test.ts',
  'server/test/git-http.test.ts',
  'server/src/api/rest/routes/merge-requests/merge.int.test.ts',
  'server/src/api/rest/routes/notes/discussions.int.test.ts',
];

/**
 * Integration files run without isolation: each worker process keeps its modules (the server's
 * whole graph, ~1.3 s of importing per file) and its warmed-up JIT across files, instead of a new
 * process per file. Files share nothing else: each opens its own database and server and closes
 * them in afterAll; none mocks a module or changes process.env. Measured on twelve postgres
 * files, one worker: 82 s wall and 35 s user CPU isolated, 50 s and 20 s not.
 * TRIBUTARY_TEST_ISOLATE=1 isolates them again (to tell whether a failure comes from a file
 * before it in the same worker).
 */
const integrationIsolate = process.env.TRIBUTARY_TEST_ISOLATE === '1';

/**
 * Crash files that kill and restart real server processes, whose engine-specific part (merge
 * intents, reconciliation) another crash file already runs on both engines: the full run takes
 * them on PostgreSQL only; a file filter or TRIBUTARY_TEST_ENGINES=all runs them on PGlite too.
 * merge-trains-crash (~70 s on PGlite before test servers held a runner's long poll 1 s; ~22 s since) settles its car through the merge intents and the
 * reconciliation that merge-crash.int.test.ts tests on both.
 */
export const POSTGRES_ONLY_IN_FULL_RUN = ['server/src/api/rest/routes/merge-trains-crash.int.test.ts'];

/** A path or a file name on Vitest's command line: then every integration file is eligible on both engines. */
const fileFilterGiven = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /[/.]/.test(arg) && !/vitest(\.mjs)?$/.test(arg));
const bothEnginesInFull = process.env.TRIBUTARY_TEST_ENGINES === 'all' || fileFilterGiven;
const pgliteIntegrationFiles = bothEnginesInFull ? integrationFiles : [...ENGINE_DEPENDENT, ...PGLITE_SMOKE];

const unitFiles = ['server/src/**/*.test.ts', 'packages/**/src/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'bench/lib/**/*.test.ts'];
const unitSettings = {
  // Web modules reach Primer (which imports its own CSS) through feature indexes, even from
  // tests of pure helpers: Node answers every .css import with an empty module in every file.
  // after-each-file-test.ts runs test-support cleanups (Testing Library's) after every test of every file.
  setupFiles: [here('web/src/test-support/css-imports.ts'), here('web/src/test-support/after-each-file-test.ts')],
  testTimeout: 15_000,
  hookTimeout: 30_000,
};

/**
 * Unit files run without isolation (`unit`): each worker imports Primer, React and the server's
 * modules once, not once per file (measured: the project's wall time 153 s isolated, 87 s not).
 * So a unit file must leave nothing behind: timers faked are made real again, globals and
 * process.env restored, and module-level hooks of test-support files go through
 * after-each-file-test.ts. A file that mocks a module (vi.mock) needs a fresh module graph of
 * its own: it is listed here and runs isolated in `unit-isolated`.
 */
export const UNIT_ISOLATED = [
  // mocks platform/events.js and imports the whole composition root after the mock
  'server/src/composition/reaction-order.test.ts',
];

export default defineConfig({
  resolve: {
    // The web app imports the shared contracts per file from source (see web/vite.config.ts).
    alias: [{ find: /^@tributary\/contracts\/(.*)$/, replacement: here('packages/contracts/src/$1') }],
  },
  test: {
    pool: 'forks',
    maxWorkers: workers,
    environment: 'node',
    teardownTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: unitFiles,
          exclude: [...configDefaults.exclude, '**/*.int.test.ts', '**/*.e2e.test.ts', ...UNIT_ISOLATED],
          ...unitSettings,
          // A worker keeps its modules (Primer, React, the server's graph) from one file to the next.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-isolated',
          include: UNIT_ISOLATED,
          ...unitSettings,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-pglite',
          include: pgliteIntegrationFiles,
          exclude: [...configDefaults.exclude, '**/*.e2e.test.ts', ...(bothEnginesInFull ? [] : POSTGRES_ONLY_IN_FULL_RUN)],
          env: { TRIBUTARY_TEST_DB: 'pglite' },
          globalSetup: [pgliteSetup],
          isolate: integrationIsolate,
          setupFiles: [cheapPasswordHashes],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-postgres',
          include: integrationFiles,
          exclude: [...configDefaults.exclude, '**/*.e2e.test.ts'],
          env: { TRIBUTARY_TEST_DB: 'postgres' },
          globalSetup: [pgliteSetup, here('server/src/test-support/postgres-global-setup.ts')],
          isolate: integrationIsolate,
          setupFiles: [cheapPasswordHashes],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          globalSetup: [pgliteSetup, here('e2e/support/browser-global-setup.ts')],
          setupFiles: [cheapPasswordHashes],
          // Only once the other projects are done, two files at a time (on 2 cores one file
          // leaves a core mostly idle: its server, page and test wait on each other; two workers
          // took the project from 435 s to 381 s wall even on a machine loaded by other work).
          // TRIBUTARY_TEST_WORKERS=1 runs one file at a time.
          fileParallelism: workers > 1,
          maxWorkers: Math.min(2, workers),
          // Each worker process keeps its modules across files: the server's code is imported
          // once per worker, not once per file, and every file shares one Chromium
          // (e2e/support/browser-global-setup.ts). Each file still starts a server of its own.
          isolate: false,
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
