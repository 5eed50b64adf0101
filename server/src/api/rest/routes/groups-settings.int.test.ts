import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';

const NAME_RULE = "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.";

/** The group settings page's calls: PUT /groups/:id (Owners only) and GitLab's group name rule. */
describe(`group settings (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let groupId: number;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    groupId = (await fx.root.Groups.create('Settings Group', 'settings-group', { visibility: 'private' })).id as number;
  });
  afterAll(() => fx?.close());

  it('refuses a name that breaks the rule with 400 and GitLab\'s message, on create and on update, changing nothing', async () => {
    const created = await fx.call('POST', '/groups', { body: { name: '-Dashing', path: 'dashing' } });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ message: { name: [NAME_RULE] } });
    expect((await fx.call('GET', '/groups/dashing')).status).toBe(404);

    const updated = await fx.call('PUT', `/groups/${groupId}`, { body: { name: 'semi;colon' } });
    expect(updated.status).toBe(400);
    expect(updated.body).toEqual({ message: { name: [NAME_RULE] } });
    expect((await fx.call('GET', `/groups/${groupId}`)).body).toMatchObject({ name: 'Settings Group' });
  });

  it('an Owner renames and describes the group; a stranger gets 404 and a Maintainer 403', async () => {
    const saved = await fx.root.Groups.edit(groupId, { name: 'Settings (renamed) 🚀', description: 'Where settings live' });
    expect(saved).toMatchObject({ name: 'Settings (renamed) 🚀', description: 'Where settings live' });
    const stranger = await fx.server.createUser();
    expect((await fx.call('PUT', `/groups/${groupId}`, { token: stranger.token, body: { name: 'Mine' } })).status).toBe(404);
    const maintainer = await fx.server.createUser();
    await fx.root.GroupMembers.add(groupId, 40, { userId: maintainer.id });
    expect((await fx.call('PUT', `/groups/${groupId}`, { token: maintainer.token, body: { name: 'Mine' } })).status).toBe(403);
  });
});
