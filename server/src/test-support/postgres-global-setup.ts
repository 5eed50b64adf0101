import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { migrate } from '../platform/db/migrate.js';
import { openPostgres } from '../platform/db/postgres.js';
import { ADMIN_URL_ENV, ADMIN_URL_KEY, createTemplateDatabase, startPostgresCluster, TEMPLATE_ENV, TEMPLATE_KEY } from './postgres-cluster.js';

/**
 * Global setup of the `integration-postgres` Vitest project: one throwaway
 * PostgreSQL cluster for the whole run (or DATABASE_URL when it is set, and then
 * nothing is started), and in it a migrated template database. Test files reach them through
 * `createTestDatabase()`.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const external = process.env.DATABASE_URL;
  let adminUrl: string;
  let stopCluster = async (): Promise<void> => undefined;
  if (external) {
    adminUrl = external;
  } else {
    const started = Date.now();
    const cluster = await startPostgresCluster();
    console.log(`[integration-postgres] PostgreSQL cluster on port ${cluster.port} ready in ${Date.now() - started} ms`);
    adminUrl = cluster.adminUrl;
    stopCluster = () => cluster.stop();
  }
  project.provide(ADMIN_URL_KEY, adminUrl);
  process.env[ADMIN_URL_ENV] = adminUrl;

  // One migrated database that every test database needing the schema is copied from, instead of
  // running every migration once per test file (see createTestDatabase).
  let dropTemplate = async (): Promise<void> => undefined;
  const template = `tributary_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  try {
    const started = Date.now();
    dropTemplate = await createTemplateDatabase(adminUrl, template, async (url) => {
      const db = await openPostgres(url);
      try {
        await migrate(db);
      } finally {
        await db.close();
      }
    });
    project.provide(TEMPLATE_KEY, template);
    process.env[TEMPLATE_ENV] = template;
    console.log(`[integration-postgres] migrated template database ${template} ready in ${Date.now() - started} ms`);
  } catch (error) {
    // Each test database is then migrated from empty: slower, the same result.
    console.warn(`[integration-postgres] no template database (${(error as Error).message.split('\n')[0]}); every test database runs the migrations`);
  }

  return async () => {
    delete process.env[ADMIN_URL_ENV];
    delete process.env[TEMPLATE_ENV];
    await dropTemplate().catch(() => undefined);
    await stopCluster();
  };
}
