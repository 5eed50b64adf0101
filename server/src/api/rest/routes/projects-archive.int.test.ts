import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';

/** POST /projects/:id/archive and /unarchive: Maintainers only; an archived project is read-only. */
describe(`project archiving (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('archive-me');
  });
  afterAll(() => fx?.close());

  it('archives and unarchives (201 with the project), and writes are refused meanwhile', async () => {
    const developer = await fx.member(project.id, 30);
    expect((await fx.call('POST', `/projects/${project.id}/archive`, { token: developer.token })).status).toBe(403);
    expect((await fx.root.Projects.archive(project.id)).archived).toBe(true);
    const branch = await fx.call('POST', `/projects/${project.id}/repository/branches`, { token: developer.token, body: { branch: 'late', ref: 'main' } });
    expect(branch.status).toBe(403);
    expect((await fx.root.Projects.unarchive(project.id)).archived).toBe(false);
    expect((await fx.call('POST', `/projects/${project.id}/repository/branches`, { token: developer.token, body: { branch: 'late', ref: 'main' } })).status).toBe(201);
  });

  it('answers 404 to those who cannot see the project', async () => {
    const stranger = await fx.server.createUser();
    expect((await fx.call('POST', `/projects/${project.id}/archive`, { token: stranger.token })).status).toBe(404);
  });
});
