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

  it('transfers a group with its subgroups and projects under a new parent (gitbeaker), paths follow, repositories stay', async () => {
    const parent = (await fx.root.Groups.create('New Home', 'new-home', { visibility: 'private' })).id as number;
    const moving = (await fx.root.Groups.create('Movers', 'movers', { visibility: 'internal' })).id as number;
    const sub = (await fx.root.Groups.create('Sub', 'sub', { parentId: moving, visibility: 'internal' })).id as number;
    const project = await fx.root.Projects.create({ name: 'crate', namespaceId: sub, initializeWithReadme: true, visibility: 'internal' });
    const head = await fx.bareGit(project.id as number, ['rev-parse', 'main']);

    const moved: unknown = await fx.root.Groups.transfer(moving, { groupId: parent });
    expect(moved).toMatchObject({ full_path: 'new-home/movers', parent_id: parent, visibility: 'private' });
    expect((await fx.call('GET', `/groups/${sub}`)).body).toMatchObject({ full_path: 'new-home/movers/sub', visibility: 'private' });
    expect((await fx.call('GET', `/projects/${project.id}`)).body).toMatchObject({ path_with_namespace: 'new-home/movers/sub/crate', visibility: 'private' });
    // the old path redirects to the project (GitLab's redirect_routes)
    expect((await fx.call('GET', `/projects/${encodeURIComponent('movers/sub/crate')}`)).body).toMatchObject({ id: project.id, path_with_namespace: 'new-home/movers/sub/crate' });
    expect(await fx.bareGit(project.id as number, ['rev-parse', 'main'])).toBe(head);

    // Back to the top level: no group_id.
    const top = await fx.call('POST', `/groups/${moving}/transfer`);
    expect(top.status).toBe(201);
    expect(top.body).toMatchObject({ full_path: 'movers', parent_id: null });
    expect((await fx.call('GET', `/projects/${project.id}`)).body).toMatchObject({ path_with_namespace: 'movers/sub/crate' });
  });

  it('refuses with GitLab\'s messages and changes nothing', async () => {
    const root = (await fx.root.Groups.create('Root Only', 'root-only')).id as number;
    const child = (await fx.root.Groups.create('Child', 'child', { parentId: root })).id as number;
    const refusals: [string, unknown, number, unknown][] = [
      [`/groups/${root}/transfer`, {}, 400, { message: 'Transfer failed: Group is already a root group.' }],
      [`/groups/${child}/transfer`, { group_id: root }, 400, { message: 'Transfer failed: Group is already associated to the parent group.' }],
      [`/groups/${root}/transfer`, { group_id: child }, 400, { message: 'Transfer failed: Cannot transfer group to one of its subgroup.' }],
      [`/groups/${root}/transfer`, { group_id: 999999 }, 404, { message: '404 Group Not Found' }],
    ];
    for (const [path, body, status, answer] of refusals) {
      const response = await fx.call('POST', path, { body });
      expect(response.status).toBe(status);
      expect(response.body).toEqual(answer);
    }
    await fx.root.Groups.create('Child', 'child');
    const clash = await fx.call('POST', `/groups/${child}/transfer`);
    expect(clash.body).toEqual({ message: 'Transfer failed: The parent group already has a subgroup or a project with the same path.' });
    expect((await fx.call('GET', `/groups/${child}`)).body).toMatchObject({ full_path: 'root-only/child' });
  });

  it('needs Owner of the group and of the new parent; a stranger gets 404', async () => {
    const owned = (await fx.root.Groups.create('Owned', 'owned')).id as number;
    const target = (await fx.root.Groups.create('Target', 'target')).id as number;
    const owner = await fx.server.createUser();
    await fx.root.GroupMembers.add(owned, 50, { userId: owner.id });
    await fx.root.GroupMembers.add(target, 40, { userId: owner.id });
    const notOwnerOfTarget = await fx.call('POST', `/groups/${owned}/transfer`, { token: owner.token, body: { group_id: target } });
    expect(notOwnerOfTarget.status).toBe(400);
    expect(notOwnerOfTarget.body).toEqual({ message: "Transfer failed: You don't have enough permissions." });
    const maintainer = await fx.server.createUser();
    await fx.root.GroupMembers.add(owned, 40, { userId: maintainer.id });
    expect((await fx.call('POST', `/groups/${owned}/transfer`, { token: maintainer.token, body: { group_id: target } })).status).toBe(403);
    const stranger = await fx.server.createUser();
    expect((await fx.call('POST', `/groups/${owned}/transfer`, { token: stranger.token, body: { group_id: target } })).status).toBe(404);
    expect((await fx.call('GET', `/groups/${owned}`)).body).toMatchObject({ full_path: 'owned' });
  });
});
