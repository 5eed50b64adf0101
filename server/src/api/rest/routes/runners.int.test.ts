import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../test-support/server.js';

/**
 * Runners as GitLab has them: POST /user/runners (gitbeaker's Users.createCIRunner), the calls the
 * stock gitlab-runner makes with its token (verify, unregister, reset), and the runners API
 * (gitbeaker's Runners resource) with its permissions.
 */
describe(`runners API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let other: { id: number; path_with_namespace: string };
  let group: { id: number };
  let groupProject: { id: number };
  let maintainer: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let groupOwner: TestUser;
  let groupMaintainer: TestUser;

  /** What gitlab-runner's network client sends (network/gitlab.go: VerifyRunnerRequest, and its headers). */
  const runnerCall = (method: string, path: string, body: unknown, token?: string) =>
    fetch(`${fx.server.url}/api/v4${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'User-Agent': 'gitlab-runner 17.5.0 (17-5-stable; go1.22.7; linux/amd64)',
        ...(token ? { 'RUNNER-TOKEN': token } : {}),
      },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('runner-home');
    other = await fx.createProject('runner-second');
    maintainer = await fx.member(project.id, 40);
    await fx.root.ProjectMembers.add(other.id, 40, { userId: maintainer.id });
    developer = await fx.member(project.id, 30);
    stranger = await fx.server.createUser();
    group = { id: (await fx.root.Groups.create('Runner Group', 'runner-group')).id as number };
    groupProject = { id: (await fx.root.Projects.create({ name: 'grouped', namespaceId: group.id })).id as number };
    groupOwner = await fx.server.createUser();
    groupMaintainer = await fx.server.createUser();
    await fx.root.GroupMembers.add(group.id, 50, { userId: groupOwner.id });
    await fx.root.GroupMembers.add(group.id, 40, { userId: groupMaintainer.id });
  });
  afterAll(() => fx?.close());

  it('creates a project runner for a Maintainer (201, a glrt- token shown once, only its digest stored)', async () => {
    const api = gitbeakerClient(fx.server.url, maintainer.token);
    const created = await api.Users.createCIRunner('project_type', {
      projectId: project.id,
      description: 'docker box',
      tagList: ['docker', 'linux'],
      runUntagged: false,
      accessLevel: 'ref_protected',
      maximumTimeout: 3600,
      maintenanceNote: 'in the rack',
    } as never);
    expect(Object.keys(created).sort()).toEqual(['id', 'token', 'token_expires_at']);
    expect(created.token).toMatch(/^glrt-[A-Za-z0-9_-]{20,}$/);
    expect(created.token_expires_at).toBeNull();
    const { rows } = await fx.server.app.db.query<Record<string, unknown>>('SELECT * FROM ci_runners WHERE id = $1', [created.id]);
    expect(JSON.stringify(rows[0])).not.toContain(created.token as string);
    const shown = await api.Runners.show(created.id as number);
    expect(shown).toMatchObject({
      id: created.id,
      description: 'docker box',
      runner_type: 'project_type',
      is_shared: false,
      paused: false,
      active: true,
      tag_list: ['docker', 'linux'],
      run_untagged: false,
      access_level: 'ref_protected',
      maximum_timeout: 3600,
      maintenance_note: 'in the rack',
      online: false,
      status: 'never_contacted',
      contacted_at: null,
      projects: [{ id: project.id, path_with_namespace: project.path_with_namespace }],
      groups: [],
    });
  });

  it('refuses creation to a Developer (403), a stranger (404 for a private project), and instance runners to non-administrators', async () => {
    const body = { runner_type: 'project_type', project_id: project.id };
    expect(await fx.call('POST', '/user/runners', { token: developer.token, body })).toMatchObject({ status: 403, body: { message: '403 Forbidden - Insufficient permissions' } });
    expect(await fx.call('POST', '/user/runners', { token: stranger.token, body })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect((await fx.call('POST', '/user/runners', { token: null, body })).status).toBe(401);
    expect((await fx.call('POST', '/user/runners', { token: maintainer.token, body: { runner_type: 'instance_type' } })).status).toBe(403);
    expect((await fx.call('POST', '/user/runners', { token: groupMaintainer.token, body: { runner_type: 'group_type', group_id: group.id } })).status).toBe(403);
    const count = await fx.server.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ci_runners');
    expect(count.rows[0]!.n).toBe(1);
  });

  it('answers 400 for bad input and creates nothing', async () => {
    for (const body of [
      {},
      { runner_type: 'cloud_type' },
      { runner_type: 'project_type' },
      { runner_type: 'group_type' },
      { runner_type: 'project_type', project_id: project.id, access_level: 'always' },
      { runner_type: 'project_type', project_id: project.id, maximum_timeout: 60 },
      { runner_type: 'project_type', project_id: project.id, run_untagged: false },
    ]) {
      const answer = await fx.call('POST', '/user/runners', { token: maintainer.token, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      // a missing or undeclared runner_type or access_level is Grape's {"error": …}; the rest the model's {"message": …}
      expect(answer.body.message ?? answer.body.error, JSON.stringify(body)).toBeTruthy();
    }
    const count = await fx.server.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ci_runners');
    expect(count.rows[0]!.n).toBe(1);
  });

  it('takes the create_runner scope for POST /user/runners and nothing else', async () => {
    const token = await fx.server.createToken(maintainer.id, { scopes: ['create_runner'] });
    const created = await fx.call('POST', '/user/runners', { token, body: { runner_type: 'project_type', project_id: project.id, description: 'scoped' } });
    expect(created.status).toBe(201);
    expect((await fx.call('GET', `/projects/${project.id}`, { token })).status).toBe(403);
    const readOnly = await fx.server.createToken(maintainer.id, { scopes: ['read_api'] });
    expect((await fx.call('POST', '/user/runners', { token: readOnly, body: { runner_type: 'project_type', project_id: project.id } })).status).toBe(403);
    // manage_runner: the /runners/:id calls, not the lists nor the creation
    const manage = await fx.server.createToken(maintainer.id, { scopes: ['manage_runner'] });
    expect((await fx.call('GET', `/runners/${created.body.id}`, { token: manage })).status).toBe(200);
    expect((await fx.call('PUT', `/runners/${created.body.id}`, { token: manage, body: { description: 'managed' } })).body.description).toBe('managed');
    expect((await fx.call('GET', '/runners', { token: manage })).status).toBe(403);
    expect((await fx.call('POST', '/user/runners', { token: manage, body: { runner_type: 'project_type', project_id: project.id } })).status).toBe(403);
    expect((await fx.call('DELETE', `/runners/${created.body.id}`, { token: manage })).status).toBe(204);
  });

  it('verifies the token exactly as gitlab-runner sends it (200 with id and token), records the contact, 403 for a bad token', async () => {
    const { id, token } = await gitbeakerClient(fx.server.url, maintainer.token).Users.createCIRunner('project_type', { projectId: project.id, description: 'verify me' } as never);
    const verified = await runnerCall('POST', '/runners/verify', { token, system_id: 's_0123456789ab' }, token as string);
    expect(verified.status).toBe(200);
    expect(verified.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await verified.json()).toEqual({ id, token, token_expires_at: null });
    const shown = await fx.root.Runners.show(id as number);
    expect(shown).toMatchObject({ online: true, status: 'online' });
    expect(shown.contacted_at).toEqual(expect.any(String));

    const bad = await runnerCall('POST', '/runners/verify', { token: 'glrt-not-a-token', system_id: 's_0123456789ab' });
    expect(bad.status).toBe(403);
    expect(await bad.json()).toEqual({ message: '403 Forbidden' });
    expect((await runnerCall('POST', '/runners/verify', {})).status).toBe(400);
    // a project runner whose projects are all gone is orphaned (GitLab's 422)
    await fx.server.app.db.query('DELETE FROM ci_runner_projects WHERE runner_id = $1', [id]);
    const orphaned = await runnerCall('POST', '/runners/verify', { token, system_id: 's_0123456789ab' }, token as string);
    expect(orphaned.status).toBe(422);
    expect(await orphaned.json()).toEqual({ message: 'Runner is orphaned' });
    await fx.server.app.db.query('INSERT INTO ci_runner_projects (runner_id, project_id) VALUES ($1, $2)', [id, project.id]);
    // gitbeaker's Runners.verify sends the same call
    expect(await gitbeakerClient(fx.server.url, stranger.token).Runners.verify({ token: token as string } as never)).toMatchObject({ id, token });
  });

  it('finds a runner by its token and tells whether it may run a job (the job-request protocol\'s rule)', async () => {
    const { id, token } = await gitbeakerClient(fx.server.url, maintainer.token).Users.createCIRunner('project_type', { projectId: project.id, tagList: ['gpu'] } as never);
    const runners = fx.server.app.services.runners;
    const runner = await runners.authenticate(token as string);
    expect(runner).toMatchObject({ id, project_ids: [project.id], tag_list: ['gpu'] });
    expect(await runners.authenticate('glrt-wrong')).toBeNull();
    expect(runners.canPick(runner!, { projectId: project.id, groupAncestry: [], tags: ['gpu'], protectedRef: false })).toBe(true);
    expect(runners.canPick(runner!, { projectId: other.id, groupAncestry: [], tags: ['gpu'], protectedRef: false })).toBe(false);
    await fx.root.Runners.remove({ runnerId: id as number });
  });

  it('unregisters with DELETE /runners (204) and rotates its own token', async () => {
    const { id, token } = await gitbeakerClient(fx.server.url, maintainer.token).Users.createCIRunner('project_type', { projectId: project.id } as never);
    const reset = await runnerCall('POST', '/runners/reset_authentication_token', { token });
    expect(reset.status).toBe(201);
    const rotated = (await reset.json()) as { token: string; token_expires_at: null };
    expect(rotated.token).toMatch(/^glrt-/);
    expect(rotated.token).not.toBe(token);
    expect((await runnerCall('POST', '/runners/verify', { token })).status).toBe(403);
    expect((await runnerCall('POST', '/runners/verify', { token: rotated.token })).status).toBe(200);
    expect((await runnerCall('DELETE', '/runners', { token: 'glrt-nope' })).status).toBe(403);
    const removed = await runnerCall('DELETE', '/runners', { token: rotated.token });
    expect(removed.status).toBe(204);
    expect((await runnerCall('POST', '/runners/verify', { token: rotated.token })).status).toBe(403);
    expect((await fx.call('GET', `/runners/${id}`)).status).toBe(404);
  });

  it('lists owned runners with GitLab\'s filters; /runners/all is for administrators', async () => {
    const api = gitbeakerClient(fx.server.url, maintainer.token);
    const owned = await api.Runners.all({ owned: true } as never);
    expect(owned.map((r) => r.description).sort()).toEqual(['docker box', 'verify me']);
    expect(owned[0]).toEqual({
      id: expect.any(Number),
      description: expect.any(String),
      ip_address: '',
      active: true,
      paused: false,
      is_shared: false,
      runner_type: 'project_type',
      name: null,
      online: expect.any(Boolean),
      status: expect.any(String),
      created_at: expect.any(String),
    });
    const list = async (query: string, token = maintainer.token) => (await fx.call('GET', `/runners?${query}`, { token })).body.map((r: { description: string }) => r.description).sort();
    expect(await list('status=online')).toEqual(['verify me']);
    expect(await list('status=never_contacted')).toEqual(['docker box']);
    expect(await list('scope=online')).toEqual(['verify me']);
    expect(await list('tag_list=docker,linux')).toEqual(['docker box']);
    expect(await list('tag_list=docker,gpu')).toEqual([]);
    expect(await list('type=group_type')).toEqual([]);
    expect(await list('paused=true')).toEqual([]);
    expect(await list('', developer.token)).toEqual([]);
    expect(await fx.call('GET', '/runners?scope=specific')).toMatchObject({ status: 400, body: { message: 'Scope contains invalid value' } });
    expect((await fx.call('GET', '/runners?status=sleeping')).status).toBe(400);
    const headers = (await fx.call('GET', '/runners?per_page=1', { token: maintainer.token })).headers;
    expect(headers.get('x-total')).toBe('2');

    expect((await fx.call('GET', '/runners/all', { token: maintainer.token })).status).toBe(403);
    const all = await fx.root.Runners.all();
    expect(all.map((r) => r.description)).toEqual(expect.arrayContaining(['docker box', 'verify me']));
    expect((await fx.call('GET', '/runners/all?scope=specific')).body.length).toBe(all.length);
    expect((await fx.call('GET', '/runners/all?scope=shared')).body).toEqual([]);
  });

  it('shows and edits a runner for its Maintainers only: 404 for a Developer and a stranger', async () => {
    const [runner] = await gitbeakerClient(fx.server.url, maintainer.token).Runners.all({ owned: true, tagList: ['docker'] } as never);
    const id = runner!.id as number;
    for (const user of [developer, stranger]) {
      expect(await fx.call('GET', `/runners/${id}`, { token: user.token })).toMatchObject({ status: 404, body: { message: '404 Runner Not Found' } });
      expect((await fx.call('PUT', `/runners/${id}`, { token: user.token, body: { paused: true } })).status).toBe(404);
      expect((await fx.call('DELETE', `/runners/${id}`, { token: user.token })).status).toBe(404);
    }
    const api = gitbeakerClient(fx.server.url, maintainer.token);
    const paused = await api.Runners.edit(id, { paused: true, tagList: ['docker', 'linux', 'arm64'], description: 'docker box 2' } as never);
    expect(paused).toMatchObject({ paused: true, active: false, tag_list: ['docker', 'linux', 'arm64'], description: 'docker box 2' });
    expect((await api.Runners.edit(id, { active: true } as never)).paused).toBe(false);
    expect((await fx.call('PUT', `/runners/${id}`, { token: maintainer.token, body: {} })).status).toBe(400);
    expect((await fx.call('PUT', `/runners/${id}`, { token: maintainer.token, body: { tag_list: [] } })).status).toBe(400);
    expect((await fx.call('PUT', `/runners/${id}`, { token: maintainer.token, body: { active: true, paused: true } })).status).toBe(400);
    expect((await api.Runners.show(id)).tag_list).toEqual(['docker', 'linux', 'arm64']);
    expect((await fx.call('GET', '/runners/999999')).status).toBe(404);
  });

  it('enables a runner for another project and disables it; a runner of two projects is not deleted', async () => {
    const api = gitbeakerClient(fx.server.url, maintainer.token);
    const { id } = await api.Users.createCIRunner('project_type', { projectId: project.id, description: 'shared between two' } as never);
    expect((await fx.call('POST', `/projects/${other.id}/runners`, { token: developer.token, body: { runner_id: id } })).status).toBe(404);
    const enabled = await api.Runners.enable(other.id, id as number);
    expect(enabled).toMatchObject({ id, runner_type: 'project_type' });
    expect((await fx.call('POST', `/projects/${other.id}/runners`, { token: maintainer.token, body: { runner_id: id } })).status).toBe(400);
    expect((await api.Runners.show(id as number)).projects.map((p: { id: number }) => p.id)).toEqual([project.id, other.id]);
    expect((await api.Runners.all({ projectId: other.id })).map((r) => r.id)).toContain(id);
    expect(await fx.call('DELETE', `/runners/${id}`, { token: maintainer.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden - Runner associated with more than one project' } });
    await api.Runners.disable(other.id, id as number);
    expect((await fx.call('DELETE', `/projects/${project.id}/runners/${id}`, { token: maintainer.token })).status).toBe(403);
    await api.Runners.remove({ runnerId: id as number });
    expect((await fx.call('GET', `/runners/${id}`)).status).toBe(404);
  });

  it('lists a project\'s runners for its Maintainers (403 for a Developer, 404 for a stranger)', async () => {
    const { id: instanceRunner } = await fx.root.Users.createCIRunner('instance_type', { description: 'everyone' } as never);
    const listed = await gitbeakerClient(fx.server.url, maintainer.token).Runners.all({ projectId: project.id });
    expect(listed.map((r) => r.description)).toEqual(expect.arrayContaining(['everyone', 'docker box 2', 'verify me']));
    expect(listed.find((r) => r.id === instanceRunner)).toMatchObject({ is_shared: true, runner_type: 'instance_type' });
    expect((await fx.call('GET', `/projects/${project.id}/runners`, { token: developer.token })).status).toBe(403);
    expect((await fx.call('GET', `/projects/${project.id}/runners`, { token: stranger.token })).status).toBe(404);
    expect((await fx.call('GET', `/runners/${instanceRunner}`, { token: stranger.token })).status).toBe(200);
    expect((await fx.call('PUT', `/runners/${instanceRunner}`, { token: stranger.token, body: { paused: true } })).status).toBe(403);
  });

  it('creates group runners for group Owners and lists them on the group and its projects', async () => {
    const created = await gitbeakerClient(fx.server.url, groupOwner.token).Users.createCIRunner('group_type', { groupId: group.id, description: 'group box' } as never);
    const shown = await gitbeakerClient(fx.server.url, groupMaintainer.token).Runners.show(created.id as number);
    expect(shown).toMatchObject({ runner_type: 'group_type', groups: [{ id: group.id, name: 'Runner Group' }] });
    expect((await fx.call('PUT', `/runners/${created.id}`, { token: groupMaintainer.token, body: { paused: true } })).status).toBe(403);
    const onGroup = await gitbeakerClient(fx.server.url, groupMaintainer.token).Runners.all({ groupId: group.id });
    expect(onGroup.map((r) => r.description)).toEqual(expect.arrayContaining(['group box', 'everyone']));
    const onProject = await fx.root.Runners.all({ projectId: groupProject.id });
    expect(onProject.map((r) => r.description)).toContain('group box');
    expect((await fx.root.Runners.all({ projectId: project.id })).map((r) => r.description)).not.toContain('group box');
    expect((await fx.call('GET', `/groups/${group.id}/runners`, { token: stranger.token })).status).toBe(404);
    expect((await gitbeakerClient(fx.server.url, groupOwner.token).Runners.all({ owned: true } as never)).map((r) => r.description)).toEqual(['group box']);
  });
});
