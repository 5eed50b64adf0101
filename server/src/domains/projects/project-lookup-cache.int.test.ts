import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../test-support/repository-fixtures.js';

/**
 * Project lookups are cached per (project, user) in the server (project-lookup-cache.ts). These
 * tests warm that cache and then take access away: the next request must already be refused.
 */
describe(`cached project lookups (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
  });
  afterAll(() => fx?.close());

  async function status(projectId: number, token: string): Promise<number> {
    return (await fx.call('GET', `/projects/${projectId}`, { token })).status;
  }

  it('a project made private is hidden from strangers on the next request', async () => {
    const project = await fx.createProject('cache-visibility', { visibility: 'public' });
    const stranger = await fx.server.createUser();
    expect(await status(project.id, stranger.token)).toBe(200);
    expect(await status(project.id, stranger.token)).toBe(200);
    await fx.root.Projects.edit(project.id, { visibility: 'private' });
    expect(await status(project.id, stranger.token)).toBe(404);
  });

  it('a removed member loses the project, and a lowered one the rights, on the next request', async () => {
    const project = await fx.createProject('cache-members');
    const developer = await fx.member(project.id, 30);
    const reporter = await fx.member(project.id, 30);
    const branch = () => fx.call('POST', `/projects/${project.id}/repository/branches`, { token: reporter.token, body: { branch: `b-${Date.now()}`, ref: 'main' } });
    expect(await status(project.id, developer.token)).toBe(200);
    expect((await branch()).status).toBe(201);

    expect((await fx.call('DELETE', `/projects/${project.id}/members/${developer.id}`)).status).toBe(204);
    expect(await status(project.id, developer.token)).toBe(404);
    expect((await fx.call('PUT', `/projects/${project.id}/members/${reporter.id}`, { body: { access_level: 20 } })).status).toBe(200);
    expect((await branch()).status).toBe(403);
  });

  it('a deleted project answers 404 by path on the next request', async () => {
    const project = await fx.createProject('cache-deleted');
    const path = encodeURIComponent(project.path_with_namespace);
    expect((await fx.call('GET', `/projects/${path}`)).status).toBe(200);
    expect((await fx.call('DELETE', `/projects/${project.id}`)).status).toBe(202);
    expect((await fx.call('GET', `/projects/${path}`)).status).toBe(404);
  });

  // Another process (or psql) writing: PostgreSQL's notification from the statement trigger reaches the server.
  it.runIf(testDatabaseKind() === 'postgres')('a write committed by another connection reaches the cache within a moment', async () => {
    const project = await fx.createProject('cache-elsewhere', { visibility: 'public' });
    const stranger = await fx.server.createUser();
    expect(await status(project.id, stranger.token)).toBe(200);
    const other = new pg.Client({ connectionString: fx.server.config.databaseUrl });
    await other.connect();
    try {
      await other.query(`UPDATE projects SET visibility = 'private' WHERE id = $1`, [project.id]);
    } finally {
      await other.end();
    }
    const deadline = Date.now() + 2_000;
    let seen = await status(project.id, stranger.token);
    while (seen !== 404 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = await status(project.id, stranger.token);
    }
    expect(seen).toBe(404);
  });
});
