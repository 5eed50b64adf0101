import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * All of Tributary's tests, in four projects:
 *
 *   unit                  pure and in-process tests beside the code (*.test.ts)
 *   integration-pglite    *.int.test.ts and server/test/** against embedded PGlite
 *   integration-postgres  the same files against a real PostgreSQL server (a throwaway
 *                         cluster started by the global setup, or DATABASE_URL)
 *   e2e                   browser tests (Playwright + Chromium), one file at a time,
 *                         after everything else has finished
 *
 * `npm test` (scripts/test.mjs) runs them all; `npx vitest run --project unit` runs one.
 * CI machines have 2 cores: two workers by default, TRIBUTARY_TEST_WORKERS overrides.
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const workers = Number(process.env.TRIBUTARY_TEST_WORKERS) || Math.min(4, Math.max(2, availableParallelism()));

/** Builds the cached PGlite template once per run instead of once per worker. */
const pgliteSetup = here('server/src/test-support/pglite-global-setup.ts');

const integrationFiles = ['server/src/**/*.int.test.ts', 'server/test/**/*.test.ts'];

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
          include: ['server/src/**/*.test.ts', 'packages/**/src/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'bench/lib/**/*.test.ts'],
          exclude: [...configDefaults.exclude, '**/*.int.test.ts', '**/*.e2e.test.ts'],
          testTimeout: 15_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-pglite',
          include: integrationFiles,
          exclude: [...configDefaults.exclude, '**/*.e2e.test.ts'],
          env: { TRIBUTARY_TEST_DB: 'pglite' },
          globalSetup: [pgliteSetup],
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
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          globalSetup: [pgliteSetup],
          // One browser at a time, and only once the other projects are done (2 cores).
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
