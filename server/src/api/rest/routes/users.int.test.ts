import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { gitbeakerClient, startTestServer, type TestServer, type TestUser } from '../../../test-support/server.js';

/** Users as GitLab's administrators manage them: PUT, DELETE, block bodies, list filters, /users/:id/projects. */
describe(`users API (${testDatabaseKind()})`, () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const call = async (method: string, path: string, options: { token?: string | null; body?: unknown } = {}) => {
    const token = options.token === undefined ? server.root.token : options.token;
    const headers: Record<string, string> = token ? { 'private-token': token } : {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${server.url}/api/v4${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await response.text();
    return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    server = await startTestServer();
    alice = await server.createUser({ name: 'Alice' });
    bob = await server.createUser({ name: 'Bob' });
  });
  afterAll(() => server?.close());

  it('block and unblock answer GitLab bodies: true, then null for a second block, false for unblocking an active user', async () => {
    expect(await call('POST', `/users/${alice.id}/block`)).toMatchObject({ status: 201, text: 'true' });
    expect(await call('POST', `/users/${alice.id}/block`)).toMatchObject({ status: 201, text: 'null' });
    expect(await call('POST', `/users/${alice.id}/unblock`)).toMatchObject({ status: 201, text: 'true' });
    expect(await call('POST', `/users/${alice.id}/unblock`)).toMatchObject({ status: 201, text: 'false' });
    expect(await call('POST', `/users/${server.root.id}/block`)).toMatchObject({ status: 403, body: { message: '403 Forbidden - The API initiating user cannot be blocked by the API' } });
  });

  it('filters the list as GitLab: blocked, active, exclude_active, admins, external, and admins-only filters', async () => {
    await call('POST', `/users/${bob.id}/block`);
    const names = async (query: string, token?: string) => ((await call('GET', `/users?per_page=100&${query}`, { token })).body as Array<{ username: string }>).map((u) => u.username);
    expect(await names('blocked=true')).toEqual([bob.username]);
    expect(await names('exclude_active=true')).toEqual([bob.username]);
    expect(await names('active=true')).not.toContain(bob.username);
    expect(await names('admins=true')).toEqual(['root']);
    expect(await names('external=true')).toEqual([]);
    expect(await names('order_by=username&sort=asc')).toEqual([...(await names('order_by=username&sort=asc'))].sort());
    expect(await names('created_after=2999-01-01T00:00:00Z')).toEqual([]);
    // GitLab ignores created_after for non-administrators
    expect((await names('created_after=2999-01-01T00:00:00Z', alice.token)).length).toBeGreaterThan(0);
    expect((await call('GET', '/users?created_after=not-a-date')).status).toBe(400);
    expect((await call('GET', '/users?order_by=password')).status).toBe(400);
    const viaGitbeaker = await gitbeakerClient(server.url, server.root.token).Users.all({ blocked: true });
    expect(viaGitbeaker.map((u) => u.username)).toEqual([bob.username]);
    await call('POST', `/users/${bob.id}/unblock`);
  });

  it('PUT /users/:id changes a user for administrators (gitbeaker), 409 for a taken email, 400 for bad input, 403 for others', async () => {
    const edited = await gitbeakerClient(server.url, server.root.token).Users.edit(alice.id, { name: 'Alice Liddell', bio: 'curious' });
    expect(edited).toMatchObject({ id: alice.id, name: 'Alice Liddell', bio: 'curious', username: alice.username });
    const taken = await call('PUT', `/users/${alice.id}`, { body: { email: (await call('GET', `/users/${bob.id}`)).body.email } });
    expect(taken).toMatchObject({ status: 409, body: { message: 'Email has already been taken' } });
    expect((await call('PUT', `/users/${alice.id}`, { body: { username: bob.username } })).status).toBe(409);
    expect((await call('PUT', `/users/${alice.id}`, { body: { email: 'not-an-email' } })).status).toBe(400);
    expect((await call('PUT', `/users/${alice.id}`, { body: { password: 'short' } })).status).toBe(400);
    expect((await call('PUT', `/users/${alice.id}`, { token: bob.token, body: { name: 'Mallory' } })).status).toBe(403);
    expect((await call('PUT', `/users/${alice.id}`, { token: null, body: { name: 'Mallory' } })).status).toBe(401);
    expect((await call('PUT', '/users/999999', { body: { name: 'x' } })).status).toBe(404);
    expect((await call('GET', `/users/${alice.id}`)).body).toMatchObject({ name: 'Alice Liddell', bio: 'curious' });
  });

  it('/users/:id/projects lists the personal projects the caller may see, by id or username', async () => {
    const carol = await server.createUser({ name: 'Carol' });
    const asCarol = gitbeakerClient(server.url, carol.token);
    await asCarol.Projects.create({ name: 'public-one', visibility: 'public' });
    await asCarol.Projects.create({ name: 'private-one', visibility: 'private' });
    const seen = async (ref: string | number, token?: string) => ((await call('GET', `/users/${ref}/projects`, { token })).body as Array<{ path: string }>).map((p) => p.path).sort();
    expect(await seen(carol.id, carol.token)).toEqual(['private-one', 'public-one']);
    expect(await seen(carol.username, alice.token)).toEqual(['public-one']);
    expect((await call('GET', '/users/no-such-user-here/projects')).status).toBe(404);
    const viaGitbeaker = await gitbeakerClient(server.url, alice.token).Users.allProjects(carol.id);
    expect(viaGitbeaker.map((p) => p.path)).toEqual(['public-one']);
  });

  it('DELETE /users/:id: 403 for others, 409 while the only Owner of a group, then 204 and the user is gone', async () => {
    const dave = await server.createUser({ name: 'Dave' });
    const asDave = gitbeakerClient(server.url, dave.token);
    const group = await asDave.Groups.create('Dave group', `dave-group-${dave.id}`);
    await asDave.Projects.create({ name: 'dave-personal' });
    expect((await call('DELETE', `/users/${dave.id}`, { token: alice.token })).status).toBe(403);
    expect(await call('DELETE', `/users/${dave.id}`)).toMatchObject({ status: 409, body: { message: 'User cannot be removed while is the sole-owner of a group' } });
    expect((await call('GET', `/users/${dave.id}`)).status).toBe(200);
    await call('DELETE', `/groups/${group.id}`);
    await gitbeakerClient(server.url, server.root.token).Users.remove(dave.id);
    expect((await call('GET', `/users/${dave.id}`)).status).toBe(404);
    expect((await call('GET', `/projects/${encodeURIComponent(`${dave.username}/dave-personal`)}`)).status).toBe(404);
    expect((await call('GET', '/user', { token: dave.token })).status).toBe(401);
    expect((await call('DELETE', `/users/${dave.id}`)).status).toBe(404);
  });
});
