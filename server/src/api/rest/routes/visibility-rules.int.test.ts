import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLevel } from '@tributary/contracts';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitbeakerClient } from '../../../test-support/server.js';

/**
 * The visibility rule across objects, on every update path: a fork never more visible than its
 * source, a project never more than its group, a group never less than what it holds. 400 with
 * GitLab's messages, and nothing changes.
 */
describe(`visibility across objects (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  beforeAll(async () => {
    fx = await startRepositoryFixtures();
  });
  afterAll(() => fx?.close());

  it("refuses to make a Reporter's fork of a private project public; its code stays unreadable anonymously", async () => {
    const secret = await fx.createProject('vis-secret');
    const reporter = await fx.member(secret.id, AccessLevel.Reporter);
    const fork = await gitbeakerClient(fx.server.url, reporter.token).Projects.fork(secret.id);
    for (const visibility of ['public', 'internal']) {
      const response = await fx.call('PUT', `/projects/${fork.id}`, { token: reporter.token, body: { visibility } });
      expect(response).toMatchObject({ status: 400, body: { message: { visibility_level: [`${visibility} is not allowed since the fork source project has lower visibility.`] } } });
    }
    expect((await fx.call('GET', `/projects/${fork.id}`, { token: reporter.token })).body.visibility).toBe('private');
    expect((await fx.call('GET', `/projects/${fork.id}/repository/tree`, { token: null })).status).toBe(404);
    // Other settings still save.
    expect((await fx.call('PUT', `/projects/${fork.id}`, { token: reporter.token, body: { description: 'mine' } })).status).toBe(200);
  });

  it('refuses to make a group private while it holds a public project or subgroup, and a project more visible than its group', async () => {
    const group = await fx.root.Groups.create('Vis open', 'vis-open', { visibility: 'public' });
    const project = await fx.root.Projects.create({ name: 'vis-app', namespaceId: group.id as number, visibility: 'public' });
    const refused = await fx.call('PUT', `/groups/${group.id}`, { body: { visibility: 'private' } });
    expect(refused).toMatchObject({ status: 400, body: { message: { visibility_level: ['private is not allowed since this group contains projects with higher visibility.'] } } });
    expect((await fx.call('GET', `/groups/${group.id}`)).body.visibility).toBe('public');

    await fx.call('PUT', `/projects/${project.id}`, { body: { visibility: 'private' } });
    await fx.root.Groups.create('Vis sub', 'vis-sub', { parentId: group.id as number, visibility: 'internal' });
    const bySubgroup = await fx.call('PUT', `/groups/${group.id}`, { body: { visibility: 'private' } });
    expect(bySubgroup).toMatchObject({ status: 400, body: { message: { visibility_level: ['private is not allowed since there are sub-groups with higher visibility.'] } } });
    expect((await fx.call('PUT', `/groups/${group.id}`, { body: { visibility: 'internal' } })).status).toBe(200);

    const tooOpen = await fx.call('PUT', `/projects/${project.id}`, { body: { visibility: 'public' } });
    expect(tooOpen).toMatchObject({ status: 400, body: { message: { visibility_level: ['public is not allowed in a internal group.'] } } });
  });
});
