import type { TestProject } from 'vitest/node';
import { ADMIN_URL_ENV, ADMIN_URL_KEY, startPostgresCluster } from './postgres-cluster.js';

/**
 * Global setup of the `integration-postgres` Vitest project: one throwaway
 * PostgreSQL cluster for the whole run (or DATABASE_URL when it is set, and then
 * nothing is started). Test files reach it through `createTestDatabase()`.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const external = process.env.DATABASE_URL;
  if (external) {
    project.provide(ADMIN_URL_KEY, external);
    return undefined;
  }
  const started = Date.now();
  const cluster = await startPostgresCluster();
  console.log(`[integration-postgres] PostgreSQL cluster on port ${cluster.port} ready in ${Date.now() - started} ms`);
  project.provide(ADMIN_URL_KEY, cluster.adminUrl);
  process.env[ADMIN_URL_ENV] = cluster.adminUrl;
  return async () => {
    delete process.env[ADMIN_URL_ENV];
    await cluster.stop();
  };
}
