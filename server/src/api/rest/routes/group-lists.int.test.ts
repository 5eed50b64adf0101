import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { gitbeakerClient, startTestServer, type TestServer, type TestUser } from '../../../test-support/server.js';

/** GET /groups?skip_groups[], /groups/:id/descendant_groups, /projects/:id/groups, /namespaces/:id/exists. */
describe(`group lists and namespace checks (${testDatabaseKind()})`, () => {
  let server: TestServer;
  let member: TestUser;
  let stranger: TestUser;
  let top: { id: number; full_path: string };
  let child: { id: number };
  let grandchild: { id: number };
  let secret: { id: number };
  let project: { id: number };
  const call = async (path: string, token: string | null = server.root.token) => {
    const response = await fetch(`${server.url}/api/v4${path}`, { headers: token ? { 'private-token': token } : {} });
    return { status: response.status, body: await response.json() };
  };
  const ids = (body: unknown) => (body as Array<{ id: number }>).map((g) => g.id).sort((a, b) => a - b);

  beforeAll(async () => {
    server = await startTestServer();
    member = await server.createUser();
    stranger = await server.createUser();
    const root = gitbeakerClient(server.url, server.root.token);
    top = (await root.Groups.create('Top', `top-${process.pid}`, { visibility: 'public' })) as never;
    child = (await root.Groups.create('Child', 'child', { parentId: top.id, visibility: 'public' })) as never;
    grandchild = (await root.Groups.create('Grandchild', 'grandchild', { parentId: child.id, visibility: 'public' })) as never;
    secret = (await root.Groups.create('Secret', 'secret', { parentId: top.id, visibility: 'private' })) as never;
    await root.GroupMembers.add(top.id, 30, { userId: member.id });
    project = (await root.Projects.create({ name: 'deep', namespaceId: grandchild.id, visibility: 'public' })) as never;
  });
  afterAll(() => server?.close());

  it('skip_groups leaves groups out of /groups and /subgroups (gitbeaker); a non-integer is a 400', async () => {
    const listed = await gitbeakerClient(server.url, member.token).Groups.all({ skipGroups: [child.id] } as never);
    expect(listed.map((g) => g.id)).not.toContain(child.id);
    expect(listed.map((g) => g.id)).toContain(top.id);
    expect(ids((await call(`/groups/${top.id}/subgroups?skip_groups[]=${secret.id}`)).body)).toEqual([child.id]);
    expect((await call('/groups?skip_groups[]=abc')).status).toBe(400);
  });

  it('descendant_groups lists every visible group below, at any depth (gitbeaker)', async () => {
    const all = await gitbeakerClient(server.url, server.root.token).Groups.allDescendantGroups(top.id, {});
    expect(all.map((g) => g.id).sort((a, b) => a - b)).toEqual([child.id, grandchild.id, secret.id].sort((a, b) => a - b));
    // the private subgroup is inherited by a member of the top group, hidden from a stranger
    expect(ids((await call(`/groups/${top.id}/descendant_groups`, stranger.token)).body)).toEqual([child.id, grandchild.id]);
    expect(ids((await call(`/groups/${top.id}/descendant_groups?skip_groups[]=${grandchild.id}`, member.token)).body)).toEqual([child.id, secret.id].sort((a, b) => a - b));
    expect((await call(`/groups/${secret.id}/descendant_groups`, stranger.token)).status).toBe(404);
  });

  it('/projects/:id/groups lists the ancestors the caller may see (gitbeaker); a private project is a 404 for strangers', async () => {
    const groups = await gitbeakerClient(server.url, stranger.token).Projects.allGroups(project.id);
    expect(groups.map((g) => g.id).sort((a, b) => a - b)).toEqual([top.id, child.id, grandchild.id].sort((a, b) => a - b));
    expect(ids((await call(`/projects/${project.id}/groups?skip_groups[]=${top.id}`)).body)).toEqual([child.id, grandchild.id].sort((a, b) => a - b));
    const hidden = (await gitbeakerClient(server.url, server.root.token).Projects.create({ name: 'hidden', namespaceId: secret.id })) as { id: number };
    expect((await call(`/projects/${hidden.id}/groups`, stranger.token)).status).toBe(404);
    expect(ids((await call(`/projects/${hidden.id}/groups`, member.token)).body)).toEqual([top.id, secret.id].sort((a, b) => a - b));
  });

  it('/namespaces/:path/exists answers exists and a free suggestion, at the top level or under parent_id (gitbeaker)', async () => {
    const api = gitbeakerClient(server.url, member.token);
    expect(await api.Namespaces.exists(top.full_path)).toEqual({ exists: true, suggests: [`${top.full_path}1`] });
    expect(await api.Namespaces.exists('nothing-here-yet')).toEqual({ exists: false, suggests: [] });
    expect((await call(`/namespaces/child/exists?parent_id=${top.id}`, member.token)).body).toEqual({ exists: true, suggests: ['child1'] });
    expect((await call('/namespaces/child/exists', member.token)).body).toEqual({ exists: false, suggests: [] });
    expect((await call('/namespaces/child/exists?parent_id=abc', member.token)).status).toBe(400);
    expect((await call('/namespaces/child/exists', null)).status).toBe(401);
  });
});
