import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../src/test-support/database.js';
import { gitbeakerClient, startTestServer, type TestServer, type TestUser } from '../src/test-support/server.js';
import { addMember, countRows, createGroup, createProject, createUsers, unique } from '../src/test-support/rest-fixtures.js';
import { eventually } from '../src/test-support/eventually.js';
import { api, basicAuth, encodePath, gitbeakerStatus, http } from '../src/test-support/http.js';

/** Groups, projects and members through @gitbeaker/rest and raw HTTP, with GitLab's refusals. */
describe(`groups, projects and members (${testDatabaseKind()})`, () => {
  let server: TestServer;
  let users: Record<'owner' | 'other' | 'maintainer' | 'lister', TestUser>;

  beforeAll(async () => {
    server = await startTestServer();
    users = await createUsers(server, ['owner', 'other', 'maintainer', 'lister'] as const);
  });
  afterAll(() => server?.close());

  const as = (user: TestUser) => gitbeakerClient(server.url, user.token);
  const rest = (user?: TestUser) => api(server.url, user?.token);

  describe('groups', () => {
    it('are created with nested subgroups and found by id and by URL-encoded full path', async () => {
      const top = await as(users.owner).Groups.create(`Top ${unique('t')}`, unique('top'), { visibility: 'internal' });
      const sub = await as(users.owner).Groups.create('Sub', 'sub', { parentId: top.id as number, visibility: 'internal' });
      const leaf = await as(users.owner).Groups.create('Leaf', 'leaf', { parentId: sub.id as number, visibility: 'private' });
      expect(leaf).toMatchObject({ full_path: `${top.path}/sub/leaf`, parent_id: sub.id, visibility: 'private' });

      const byId = await rest(users.owner).get(`/groups/${leaf.id}`);
      const byPath = await rest(users.owner).get(`/groups/${encodePath(`${top.path}/sub/leaf`)}`);
      expect(byId.status).toBe(200);
      expect(byPath.status).toBe(200);
      expect(byPath.body.id).toBe(leaf.id);
      expect((await as(users.owner).Groups.show(`${top.path}/sub`)).id).toBe(sub.id);

      const subgroups = await as(users.owner).Groups.allSubgroups(top.id as number);
      expect(subgroups.map((group) => group.id)).toEqual([sub.id]);
    });

    it('are updated by their owner, and deleted with 202 together with their projects and repositories', async () => {
      const group = await createGroup(server, users.owner.token);
      const updated = await rest(users.owner).put(`/groups/${group.id}`, { description: 'Edited' });
      expect(updated.status).toBe(200);
      expect(updated.body.description).toBe('Edited');
      const project = await createProject(server, users.owner.token, { namespaceId: group.id, readme: true });
      const repo = server.app.services.storage.pathFor(project.id);
      expect((await rest(users.owner).delete(`/groups/${group.id}`)).status).toBe(202);
      expect((await rest(users.owner).get(`/groups/${group.id}`)).status).toBe(404);
      expect((await rest(users.owner).get(`/projects/${project.id}`)).status).toBe(404);
      await server.app.queue.drain();
      await eventually(() => !existsSync(repo), { what: 'the group project repository to be removed' });
    });

    it('refuse a taken path with 400 and create nothing', async () => {
      const group = await createGroup(server, users.owner.token);
      const before = await countRows(server, 'namespaces');
      const response = await rest(users.owner).post('/groups', { name: 'Again', path: group.full_path });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: { path: ['has already been taken'] } });
      expect(await countRows(server, 'namespaces')).toBe(before);
    });

    it('share one path space with users: a top-level group cannot take a username', async () => {
      const response = await rest(users.owner).post('/groups', { name: 'Squatter', path: users.other.username });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: { path: ['has already been taken'] } });
    });

    it('refuse a subgroup more visible than its parent', async () => {
      const parent = await createGroup(server, users.owner.token, { visibility: 'private' });
      const response = await rest(users.owner).post('/groups', { name: 'Loud', path: 'loud', parent_id: parent.id, visibility: 'public' });
      expect(response.status).toBe(400);
      expect(response.body.message).toHaveProperty('visibility_level');
    });
  });

  describe('projects', () => {
    it('are created in the user namespace and in a (nested) group, and found by id and by path', async () => {
      const own = await as(users.owner).Projects.create({ name: `Mine ${unique('m')}` });
      expect(own.path_with_namespace).toBe(`${users.owner.username}/${own.path}`);
      expect(own).toMatchObject({ visibility: 'private', default_branch: 'main', empty_repo: true });

      const group = await createGroup(server, users.owner.token, { visibility: 'public' });
      const sub = await createGroup(server, users.owner.token, { visibility: 'public', parentId: group.id, path: 'inner' });
      const nested = await as(users.owner).Projects.create({ name: 'Nested', path: 'nested', namespaceId: sub.id, visibility: 'internal' });
      expect(nested.path_with_namespace).toBe(`${group.full_path}/inner/nested`);

      const byPath = await rest(users.owner).get(`/projects/${encodePath(`${group.full_path}/inner/nested`)}`);
      expect(byPath.status).toBe(200);
      expect(byPath.body).toMatchObject({ id: nested.id, visibility: 'internal', namespace: { id: sub.id, kind: 'group' } });
      expect((await as(users.owner).Projects.show(own.id as number)).name).toBe(own.name);
      expect((await as(users.owner).Projects.show(own.path_with_namespace as string)).id).toBe(own.id);
    });

    it('are updated by a maintainer', async () => {
      const project = await createProject(server, users.owner.token);
      const edited = await as(users.owner).Projects.edit(project.id, { description: 'New words', name: 'Renamed' });
      expect(edited).toMatchObject({ description: 'New words', name: 'Renamed' });
      expect((await rest(users.owner).get(`/projects/${project.id}`)).body.name_with_namespace).toMatch(/ \/ Renamed$/);
    });

    it('are listed with membership, owned and search, and gitbeaker follows the Link header across pages', async () => {
      const group = await createGroup(server, users.lister.token);
      const tag = unique('many');
      const created: number[] = [];
      // 21 personal projects and one in a group: two pages of 20. Created three at a time.
      for (let i = 0; i < 21; i += 3) {
        const batch = [i, i + 1, i + 2].map((n) => createProject(server, users.lister.token, { path: `${tag}-${n}` }));
        created.push(...(await Promise.all(batch)).map((project) => project.id));
      }
      created.push((await createProject(server, users.lister.token, { namespaceId: group.id, path: `${tag}-group` })).id);

      const firstPage = await rest(users.lister).get('/projects?membership=true');
      expect(firstPage.body).toHaveLength(20);
      expect(firstPage.headers.get('x-total')).toBe('22');
      expect(firstPage.headers.get('x-total-pages')).toBe('2');
      expect(firstPage.headers.get('x-next-page')).toBe('2');
      expect(firstPage.headers.get('link')).toMatch(/<[^>]*[?&]page=2[^>]*>; rel="next"/);

      const all = await as(users.lister).Projects.all({ membership: true });
      expect(all.map((project) => project.id).sort((a, b) => a - b)).toEqual(created.sort((a, b) => a - b));

      const owned = await as(users.lister).Projects.all({ owned: true });
      expect(owned).toHaveLength(21);
      const searched = await as(users.lister).Projects.all({ membership: true, search: `${tag}-group` });
      expect(searched.map((project) => project.id)).toEqual([created.at(-1)]);
      expect(await as(users.other).Projects.all({ membership: true, search: tag })).toEqual([]);
    });

    it('refuse a taken path with GitLab’s 400 body', async () => {
      const project = await createProject(server, users.owner.token);
      const before = await countRows(server, 'projects');
      const response = await rest(users.owner).post('/projects', { name: 'Again', path: project.path_with_namespace.split('/')[1] });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } });
      expect(await countRows(server, 'projects')).toBe(before);
    });

    it.each([
      ['no name or path', {}, /name/],
      ['an invalid visibility', { name: 'Vis', visibility: 'secret' }, /visibility/],
      ['an invalid path', { name: 'Bad', path: '../escape' }, /path/],
    ])('refuse %s with 400 naming the field, creating nothing', async (_case, input, field) => {
      const before = await countRows(server, 'projects');
      const response = await rest(users.owner).post('/projects', input);
      expect(response.status).toBe(400);
      expect(response.text).toMatch(field);
      expect(await countRows(server, 'projects')).toBe(before);
    });

    it('refuse a project more visible than its private group', async () => {
      const group = await createGroup(server, users.owner.token, { visibility: 'private' });
      const response = await rest(users.owner).post('/projects', { name: 'Loud', namespace_id: group.id, visibility: 'public' });
      expect(response.status).toBe(400);
      expect(response.body.message).toHaveProperty('visibility_level');
      expect((await rest(users.owner).get(`/groups/${group.id}/projects`)).body).toEqual([]);
    });

    it('are deleted with 202: gone at once, and the repository directory removed by the background job', async () => {
      const project = await createProject(server, users.owner.token, { readme: true });
      const repo = server.app.services.storage.pathFor(project.id);
      expect(existsSync(repo)).toBe(true);
      const response = await rest(users.owner).delete(`/projects/${project.id}`);
      expect(response.status).toBe(202);
      expect((await rest(users.owner).get(`/projects/${project.id}`)).status).toBe(404);
      const gitAdvertisement = await http(server.url, 'GET', `/${project.path_with_namespace}.git/info/refs?service=git-upload-pack`, {
        headers: { authorization: basicAuth(users.owner.username, users.owner.token) },
      });
      expect(gitAdvertisement.status).toBe(404);
      await server.app.queue.drain();
      await eventually(() => !existsSync(repo), { what: 'the repository directory to be removed' });
      await eventually(async () => (await countRows(server, 'projects', 'id = $1', [project.id])) === 0, { what: 'the project row to be removed' });
    });
  });

  describe('members', () => {
    let project: { id: number };
    let group: { id: number };
    let inGroup: { id: number };

    beforeAll(async () => {
      project = await createProject(server, users.owner.token);
      group = await createGroup(server, users.owner.token);
      inGroup = await createProject(server, users.owner.token, { namespaceId: group.id });
    });

    it('include the owner of a personal project as a direct Owner member (GitLab adds them on creation)', async () => {
      const members = await as(users.owner).ProjectMembers.all(project.id);
      expect(members.find((member) => member.id === users.owner.id)).toMatchObject({ username: users.owner.username, access_level: 50 });
      const all = await as(users.owner).ProjectMembers.all(project.id, { includeInherited: true });
      expect(all.find((member) => member.id === users.owner.id)).toMatchObject({ access_level: 50 });
    });

    it('are added by user_id (gitbeaker) and by username', async () => {
      const byId = await as(users.owner).ProjectMembers.add(project.id, 30, { userId: users.other.id });
      expect(byId).toMatchObject({ id: users.other.id, username: users.other.username, access_level: 30 });
      const byName = await rest(users.owner).post(`/projects/${project.id}/members`, { username: users.maintainer.username, access_level: 40 });
      expect(byName.status).toBe(201);
      expect(byName.body).toMatchObject({ id: users.maintainer.id, access_level: 40 });
      const listed = await as(users.owner).ProjectMembers.all(project.id);
      expect(listed.map((member) => member.id)).toEqual(expect.arrayContaining([users.other.id, users.maintainer.id]));
    });

    it('refuse a duplicate with 409', async () => {
      const response = await rest(users.owner).post(`/projects/${project.id}/members`, { user_id: users.other.id, access_level: 20 });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: 'Member already exists' });
      expect((await rest(users.owner).get(`/projects/${project.id}/members/${users.other.id}`)).body.access_level).toBe(30);
    });

    it('are updated, and removed (then not found)', async () => {
      const updated = await as(users.owner).ProjectMembers.edit(project.id, users.other.id, 20);
      expect(updated.access_level).toBe(20);
      await as(users.owner).ProjectMembers.remove(project.id, users.other.id);
      expect((await rest(users.owner).get(`/projects/${project.id}/members/${users.other.id}`)).status).toBe(404);
      expect((await rest(users.other).get(`/projects/${project.id}`)).status).toBe(404);
    });

    it('inherit group membership: /members/all lists group members, and they reach the private project', async () => {
      const inheritor = (await createUsers(server, ['inheritor'] as const)).inheritor;
      expect((await rest(inheritor).get(`/projects/${inGroup.id}`)).status).toBe(404);
      await addMember(server, users.owner.token, { group: group.id }, inheritor.id, 'reporter');

      const direct = await rest(users.owner).get(`/projects/${inGroup.id}/members`);
      expect(direct.body.map((member: { id: number }) => member.id)).not.toContain(inheritor.id);
      const all = await as(users.owner).ProjectMembers.all(inGroup.id, { includeInherited: true });
      expect(all.find((member) => member.id === inheritor.id)).toMatchObject({ access_level: 20 });
      expect(all.find((member) => member.id === users.owner.id)).toMatchObject({ access_level: 50 });
      expect((await rest(inheritor).get(`/projects/${inGroup.id}`)).status).toBe(200);
      expect((await rest(users.owner).get(`/projects/${inGroup.id}/members/all/${inheritor.id}`)).body.access_level).toBe(20);
    });

    it('stop granting access once expired', async () => {
      const temporary = (await createUsers(server, ['temporary'] as const)).temporary;
      const added = await rest(users.owner).post(`/projects/${project.id}/members`, { user_id: temporary.id, access_level: 30, expires_at: '2999-12-31' });
      expect(added.body.expires_at).toBe('2999-12-31');
      expect((await rest(temporary).get(`/projects/${project.id}`)).status).toBe(200);
      await server.app.db.query('UPDATE project_members SET expires_at = current_date - 1 WHERE project_id = $1 AND user_id = $2', [project.id, temporary.id]);
      expect((await rest(temporary).get(`/projects/${project.id}`)).status).toBe(404);
    });

    it('cannot be made Owners by a Maintainer (403), by adding or by promoting', async () => {
      const maintainer = rest(users.maintainer);
      const added = await maintainer.post(`/projects/${project.id}/members`, { user_id: users.other.id, access_level: 50 });
      expect(added.status).toBe(403);
      expect((await rest(users.owner).get(`/projects/${project.id}/members/${users.other.id}`)).status).toBe(404);
      const promoted = await maintainer.put(`/projects/${project.id}/members/${users.maintainer.id}`, { access_level: 50 });
      expect(promoted.status).toBe(403);
      expect((await rest(users.owner).get(`/projects/${project.id}/members/${users.maintainer.id}`)).body.access_level).toBe(40);
      expect((await maintainer.post(`/projects/${project.id}/members`, { user_id: users.other.id, access_level: 30 })).status).toBe(201);
    });

    // doc/user/permissions.md: "Maintainers cannot create, demote, or remove Owners".
    it('cannot be demoted or removed by a Maintainer when they are Owners (403)', async () => {
      const coOwner = (await createUsers(server, ['coowner'] as const)).coowner;
      await addMember(server, users.owner.token, { project: project.id }, coOwner.id, 'owner');
      const demoted = await rest(users.maintainer).put(`/projects/${project.id}/members/${coOwner.id}`, { access_level: 10 });
      expect(demoted.status).toBe(403);
      const removed = await rest(users.maintainer).delete(`/projects/${project.id}/members/${coOwner.id}`);
      expect(removed.status).toBe(403);
      expect((await rest(users.owner).get(`/projects/${project.id}/members/${coOwner.id}`)).body.access_level).toBe(50);
    });

    it.each([
      ['an unknown level', 35],
      ['a word', 'boss'],
      ['no level', undefined],
    ])('refuse %s with 400', async (_case, level) => {
      const newcomer = users.lister;
      const response = await rest(users.owner).post(`/projects/${project.id}/members`, { user_id: newcomer.id, access_level: level });
      expect(response.status).toBe(400);
      expect(response.text).toContain('access_level');
      expect((await rest(users.owner).get(`/projects/${project.id}/members/${newcomer.id}`)).status).toBe(404);
    });

    it('refuse an unknown user with 404', async () => {
      const response = await rest(users.owner).post(`/projects/${project.id}/members`, { user_id: 999_999, access_level: 30 });
      expect(response.status).toBe(404);
    });
  });

  describe('bad input', () => {
    const projectsCount = () => countRows(server, 'projects');

    it('answers malformed JSON with 400 and changes nothing', async () => {
      const before = await projectsCount();
      const response = await http(server.url, 'POST', '/api/v4/projects', {
        token: users.owner.token,
        headers: { 'content-type': 'application/json' },
        body: '{"name": "broken",',
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/^400/);
      expect(await projectsCount()).toBe(before);
    });

    it.each([
      ['the query string', () => ({ path: `/api/v4/projects?name=${unique('q')}&visibility=internal`, headers: {} as Record<string, string>, body: undefined })],
      ['a form body', () => ({ path: '/api/v4/projects', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `name=${unique('f')}&visibility=internal` })],
    ])('takes parameters from %s, as Grape does', async (_where, requestOf) => {
      const { path, headers, body } = requestOf();
      const response = await http(server.url, 'POST', path, { token: users.owner.token, headers, body });
      expect(response.status, response.text).toBe(201);
      expect(response.body.visibility).toBe('internal');
    });

    it('ignores unknown fields', async () => {
      const response = await rest(users.owner).post('/projects', { name: unique('extra'), frobnicate: true, owner_id: users.other.id });
      expect(response.status).toBe(201);
      expect(response.body.namespace.full_path).toBe(users.owner.username);
    });

    it('answers a body over 20 MiB with 413 and changes nothing', async () => {
      const before = await projectsCount();
      const response = await http(server.url, 'POST', '/api/v4/projects', {
        token: users.owner.token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: unique('huge'), description: 'x'.repeat(21 * 1024 * 1024) }),
      });
      expect(response.status).toBe(413);
      expect(await projectsCount()).toBe(before);
    });

    it('answers an unknown project with 404 and a GitLab body', async () => {
      const response = await rest(users.owner).get(`/projects/${encodePath('nobody/nothing')}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Project Not Found' });
      expect((await gitbeakerStatus(as(users.owner).Projects.show(987_654))).status).toBe(404);
    });
  });
});
