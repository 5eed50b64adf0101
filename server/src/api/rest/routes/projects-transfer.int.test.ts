import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';

/**
 * PUT /projects/:id/transfer: the project's Owner moves it into a namespace they may create
 * projects in; the repository (hashed by id) stays where it is and keeps its history.
 */
describe(`project transfer (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
  });
  afterAll(() => fx?.close());

  it('moves the project with gitbeaker: new path, same repository, old path gone, visibility lowered to the group', async () => {
    const project = await fx.createProject('moving-house', { visibility: 'public' });
    const group = await fx.root.Groups.create('Destination', 'destination', { visibility: 'internal' });
    const before = await fx.bareGit(project.id, ['rev-parse', 'main']);
    const moved = await fx.root.Projects.transfer(project.id, group.id as number);
    expect(moved.path_with_namespace).toBe('destination/moving-house');
    expect(moved.namespace).toMatchObject({ id: group.id, full_path: 'destination' });
    expect(moved.visibility).toBe('internal');
    expect(await fx.bareGit(project.id, ['rev-parse', 'main'])).toBe(before);
    expect((await fx.call('GET', `/projects/${encodeURIComponent('destination/moving-house')}`)).status).toBe(200);
    // the old path redirects to the project (GitLab's redirect_routes)
    expect((await fx.call('GET', `/projects/${encodeURIComponent(project.path_with_namespace)}`)).body).toMatchObject({ id: project.id, path_with_namespace: 'destination/moving-house' });
    const tree = await fx.call<{ name: string }[]>('GET', `/projects/${project.id}/repository/tree`);
    expect(tree.body.map((entry) => entry.name)).toContain('README.md');
  });

  it('accepts a namespace full path, and refuses the same namespace and a taken name with GitLab\'s messages', async () => {
    const project = await fx.createProject('path-named');
    const back = await fx.call('PUT', `/projects/${project.id}/transfer`, { body: { namespace: 'destination' } });
    expect(back.status).toBe(200);
    const same = await fx.call('PUT', `/projects/${project.id}/transfer`, { body: { namespace: 'destination' } });
    expect(same.status).toBe(400);
    expect(same.body).toEqual({ message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}' });

    const twin = await fx.createProject('path-named');
    const taken = await fx.call('PUT', `/projects/${twin.id}/transfer`, { body: { namespace: 'destination' } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: 'Failed to transfer project {:new_namespace=>["Project with same name or path in target namespace already exists"]}' });
    expect((await fx.call('GET', `/projects/${twin.id}`)).body).toMatchObject({ path_with_namespace: twin.path_with_namespace });
  });

  it('bad input is a 4xx that changes nothing', async () => {
    const project = await fx.createProject('stays-put');
    const missing = await fx.call('PUT', `/projects/${project.id}/transfer`, { body: {} });
    expect(missing.status).toBe(400);
    const unknown = await fx.call('PUT', `/projects/${project.id}/transfer`, { body: { namespace: 'no-such-namespace' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Namespace Not Found' });
    expect((await fx.call('GET', `/projects/${project.id}`)).body).toMatchObject({ path_with_namespace: project.path_with_namespace });
  });

  it('refuses a stranger (404), a Maintainer of the project (403), and an Owner who may not create in the target (400)', async () => {
    const project = await fx.createProject('guarded');
    const stranger = await fx.server.createUser();
    expect((await fx.call('PUT', `/projects/${project.id}/transfer`, { token: stranger.token, body: { namespace: 'destination' } })).status).toBe(404);
    const maintainer = await fx.member(project.id, 40);
    expect((await fx.call('PUT', `/projects/${project.id}/transfer`, { token: maintainer.token, body: { namespace: 'destination' } })).status).toBe(403);
    const owner = await fx.member(project.id, 50);
    // 'destination' is internal: the owner sees it but is no member of it.
    const refused = await fx.call('PUT', `/projects/${project.id}/transfer`, { token: owner.token, body: { namespace: 'destination' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: 'Failed to transfer project {:new_namespace=>["You don\'t have permission to transfer projects into that namespace."]}' });
    expect((await fx.call('PUT', `/projects/${project.id}/transfer`)).status).toBe(400);
    expect((await fx.call('PUT', `/projects/${project.id}/transfer`, { token: null, body: { namespace: 'destination' } })).status).toBe(401);
  });
});

describe(`project path change (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
  });
  afterAll(() => fx?.close());

  it('PUT /projects/:id with `path` moves the URL, keeps the repository, and refuses a bad or taken path', async () => {
    const project = await fx.createProject('old-name');
    await fx.createProject('taken');
    const head = await fx.bareGit(project.id, ['rev-parse', 'main']);
    const renamed = await fx.root.Projects.edit(project.id, { path: 'new-name' });
    expect(renamed.path_with_namespace).toBe('root/new-name');
    expect(await fx.bareGit(project.id, ['rev-parse', 'main'])).toBe(head);
    expect((await fx.call('GET', `/projects/${encodeURIComponent('root/old-name')}`)).body).toMatchObject({ id: project.id, path_with_namespace: 'root/new-name' });

    const bad = await fx.call('PUT', `/projects/${project.id}`, { body: { path: '-bad' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: { path: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"] } });
    const taken = await fx.call('PUT', `/projects/${project.id}`, { body: { path: 'taken', description: 'not saved' } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { path: ['has already been taken'] } });
    expect((await fx.call('GET', `/projects/${project.id}`)).body).toMatchObject({ path_with_namespace: 'root/new-name', description: '' });
  });

  it('a Developer may not change the path (403), a stranger gets 404', async () => {
    const project = await fx.createProject('guarded-path');
    const developer = await fx.member(project.id, 30);
    expect((await fx.call('PUT', `/projects/${project.id}`, { token: developer.token, body: { path: 'mine' } })).status).toBe(403);
    const stranger = await fx.server.createUser();
    expect((await fx.call('PUT', `/projects/${project.id}`, { token: stranger.token, body: { path: 'mine' } })).status).toBe(404);
  });
});
