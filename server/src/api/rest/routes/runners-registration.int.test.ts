import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../test-support/server.js';
import { gitlabRunner, RUNNER_INFO, send, USER_AGENT } from './runner-protocol/gitlab-runner-wire.js';

/**
 * The runner's lifecycle around its token, as GitLab has it: legacy registration with the
 * instance's, a group's or a project's registration token (`gitlab-runner register
 * --registration-token`, gitbeaker's Runners.create) behind the instance setting
 * `allow_runner_registration_token`, unregistering by token, token lifetimes from the instance
 * settings (expired tokens refused on verify and job requests, renewed by the runner's own reset),
 * and runner managers: one per `system_id`, listed by GET /runners/:id/managers, whose contacts
 * make the runner's status.
 */
describe(`runner registration, token expiry and managers (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number };
  let group: { id: number };
  let maintainer: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let groupOwner: TestUser;
  let groupMaintainer: TestUser;
  let projectToken: string;
  let groupToken: string;
  let instanceToken: string;

  /** gitlab-runner's RegisterRunner: common.RegisterRunnerRequest (its parameters, `tag_list` a comma list, its info). */
  const register = (token: string | undefined, parameters: Record<string, unknown> = {}) =>
    send(fx.server.url, 'POST', 'runners', { 'User-Agent': USER_AGENT, Accept: 'application/json', 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' }, Buffer.from(JSON.stringify({
      description: 'registered box', tag_list: 'docker,linux', run_untagged: false, locked: false, access_level: 'not_protected', maximum_timeout: 3600, paused: false,
      ...parameters, ...(token === undefined ? {} : { token }), info: RUNNER_INFO,
    })));
  const settings = (body: Record<string, unknown>, token?: string) => fx.call('PUT', '/application/settings', { body, token });

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    project = await fx.createProject('registered');
    maintainer = await fx.member(project.id, 40);
    developer = await fx.member(project.id, 30);
    stranger = await fx.server.createUser();
    group = { id: (await fx.root.Groups.create('Registration Group', 'registration-group')).id as number };
    groupOwner = await fx.server.createUser();
    groupMaintainer = await fx.server.createUser();
    await fx.root.GroupMembers.add(group.id, 50, { userId: groupOwner.id });
    await fx.root.GroupMembers.add(group.id, 40, { userId: groupMaintainer.id });
  });
  afterAll(() => fx?.close());

  it('keeps the CI settings for administrators (GET/PUT /application/settings): GitLab 17’s defaults, 400 for bad values', async () => {
    const shown = await fx.root.ApplicationSettings.show();
    expect(shown).toMatchObject({ allow_runner_registration_token: false, runner_token_expiration_interval: null, max_artifacts_size: 100 });
    expect((await fx.call('GET', '/application/settings', { token: maintainer.token })).status).toBe(403);
    expect((await fx.call('GET', '/application/settings', { token: null })).status).toBe(401);
    expect((await settings({ allow_runner_registration_token: true }, maintainer.token)).status).toBe(403);
    const bad = await settings({ max_artifacts_size: 0, allow_runner_registration_token: true });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: { max_artifacts_size: ['must be greater than 0'] } });
    expect((await fx.root.ApplicationSettings.show()).allow_runner_registration_token).toBe(false);
  });

  it('makes registration tokens for administrators, a project’s Maintainers and a group’s Owners (shown once)', async () => {
    const instance = await fx.call('POST', '/runners/reset_registration_token');
    expect(instance.status).toBe(201);
    expect(instance.body).toEqual({ token: expect.stringMatching(/^GR1348941/), token_expires_at: null });
    instanceToken = instance.body.token;
    expect((await fx.call('POST', '/runners/reset_registration_token', { token: maintainer.token })).status).toBe(403);

    const byMaintainer = await fx.call('POST', `/projects/${project.id}/runners/reset_registration_token`, { token: maintainer.token });
    expect(byMaintainer.status).toBe(201);
    projectToken = byMaintainer.body.token;
    expect(projectToken).toMatch(/^GR1348941/);
    expect((await fx.call('POST', `/projects/${project.id}/runners/reset_registration_token`, { token: developer.token })).status).toBe(403);
    expect((await fx.call('POST', `/projects/${project.id}/runners/reset_registration_token`, { token: stranger.token })).status).toBe(404);

    const byOwner = await fx.call('POST', `/groups/${group.id}/runners/reset_registration_token`, { token: groupOwner.token });
    expect(byOwner.status).toBe(201);
    groupToken = byOwner.body.token;
    expect((await fx.call('POST', `/groups/${group.id}/runners/reset_registration_token`, { token: groupMaintainer.token })).status).toBe(403);
    expect((await fx.call('POST', `/groups/${group.id}/runners/reset_registration_token`, { token: stranger.token })).status).toBe(404);
    // only digests are stored
    const { rows } = await fx.server.app.db.query<{ digest: string }>('SELECT runners_token_digest AS digest FROM projects WHERE id = $1', [project.id]);
    expect(rows[0]!.digest).not.toContain(projectToken);
  });

  it('refuses registration while the setting is off (GitLab’s 410 "runner registration disallowed"), creating nothing', async () => {
    const before = (await fx.root.Runners.all()).length;
    const refused = await register(projectToken);
    expect(refused.status).toBe(410);
    expect(refused.json()).toEqual({ message: '410 Gone - runner registration disallowed' });
    expect((await register('GR1348941-unknown')).status).toBe(410);
    expect((await register('')).json()).toEqual({ message: '403 Forbidden - invalid token supplied' });
    expect((await register(undefined)).status).toBe(400);
    expect((await fx.root.Runners.all()).length).toBe(before);
  });

  it('registers project, group and instance runners with their tokens once allowed (201 {id, token, token_expires_at})', async () => {
    expect((await settings({ allow_runner_registration_token: true })).status).toBe(200);
    const registered = await register(projectToken);
    expect(registered.status).toBe(201);
    const body = registered.json<{ id: number; token: string; token_expires_at: null }>();
    expect(body).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^glrtr-/), token_expires_at: null });
    const shown = (await fx.root.Runners.show(body.id)) as Record<string, unknown>;
    expect(shown).toMatchObject({ runner_type: 'project_type', description: 'registered box', tag_list: ['docker', 'linux'], run_untagged: false, maximum_timeout: 3600, status: 'never_contacted' });
    expect((shown.projects as { id: number }[]).map((p) => p.id)).toEqual([project.id]);

    const viaGitbeaker = (await gitbeakerClient(fx.server.url, stranger.token).Runners.create(groupToken, { description: 'group box', tagList: ['gpu'] } as never)) as { id: number };
    expect(await fx.root.Runners.show(viaGitbeaker.id)).toMatchObject({ runner_type: 'group_type', description: 'group box' });
    const instance = await register(instanceToken, { paused: true });
    expect(instance.status).toBe(201);
    expect(await fx.root.Runners.show(instance.json<{ id: number }>().id)).toMatchObject({ runner_type: 'instance_type', paused: true });

    const invalid = await register('GR1348941-unknown');
    expect(invalid.status).toBe(403);
    expect(invalid.json()).toEqual({ message: '403 Forbidden - invalid token supplied' });
    // a reset token replaces the old one
    const reset = await fx.call('POST', `/projects/${project.id}/runners/reset_registration_token`, { token: maintainer.token });
    expect((await register(projectToken)).status).toBe(403);
    expect((await register(reset.body.token)).status).toBe(201);

    // DELETE /runners with the runner's token (gitlab-runner unregister): 204, then the token is gone
    const unregistered = await gitbeakerClient(fx.server.url, stranger.token).Runners.remove({ token: body.token });
    expect(unregistered).toBeFalsy();
    expect((await gitlabRunner(fx.server.url, body.token, 's_1').verify()).status).toBe(403);
    expect((await fx.call('GET', `/runners/${body.id}`)).status).toBe(404);
  });

  it('gives tokens the lifetime the settings set; an expired token is refused on verify and job requests; the runner renews its own', async () => {
    expect((await settings({ project_runner_token_expiration_interval: 3600 })).status).toBe(200);
    const before = Date.now();
    const created = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { id: number; token: string; token_expires_at: string };
    const expiresAt = new Date(created.token_expires_at).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);
    const runner = gitlabRunner(fx.server.url, created.token, 's_expiring');
    const verified = await runner.verify();
    expect(verified.json()).toEqual({ id: created.id, token: created.token, token_expires_at: created.token_expires_at });

    // renewing (gitlab-runner's automatic token rotation): a new token with a new lifetime
    const renewed = await runner.resetToken();
    expect(renewed.status).toBe(201);
    const { token, token_expires_at } = renewed.json<{ token: string; token_expires_at: string }>();
    expect(new Date(token_expires_at).getTime()).toBeGreaterThanOrEqual(expiresAt);
    const current = gitlabRunner(fx.server.url, token, 's_expiring');

    await fx.server.app.db.query(`UPDATE ci_runners SET token_expires_at = now() - interval '1 second' WHERE id = $1`, [created.id]);
    expect((await current.verify()).status).toBe(403);
    const request = await current.requestJob();
    expect(request.status).toBe(403);
    expect(request.json()).toEqual({ message: '403 Forbidden' });
    expect((await current.resetToken()).status).toBe(403);

    // no interval: tokens do not expire
    expect((await settings({ project_runner_token_expiration_interval: null })).status).toBe(200);
    expect(((await fx.root.Users.createCIRunner('project_type', { projectId: project.id })) as { token_expires_at: null }).token_expires_at).toBeNull();
  });

  it('records one manager per system_id (GitLab’s `<legacy>` without one); lists them; the runner’s status follows them', async () => {
    const created = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { id: number; token: string };
    expect(await fx.root.Runners.show(created.id)).toMatchObject({ status: 'never_contacted', contacted_at: null });
    expect((await fx.call('GET', `/runners/${created.id}/managers`)).body).toEqual([]);

    await gitlabRunner(fx.server.url, created.token, 's_machine_a').verify();
    expect((await gitlabRunner(fx.server.url, created.token, 's_machine_b').requestJob()).status).toBe(204);
    // a job request without system_id (older runners)
    await send(fx.server.url, 'POST', 'jobs/request', { 'Content-Type': 'application/json' }, Buffer.from(JSON.stringify({ token: created.token, info: { version: '15.0.0' } })));

    const listed = await fx.call('GET', `/runners/${created.id}/managers`, { token: maintainer.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((m: { system_id: string }) => m.system_id)).toEqual(['s_machine_a', 's_machine_b', '<legacy>']);
    expect(listed.body[1]).toEqual({
      id: expect.any(Number),
      system_id: 's_machine_b',
      version: '17.5.0',
      revision: '66269445',
      platform: 'linux',
      architecture: 'amd64',
      created_at: expect.any(String),
      contacted_at: expect.any(String),
      ip_address: expect.any(String),
      status: 'online',
      job_execution_status: 'idle',
    });
    expect(listed.body[2]).toMatchObject({ version: '15.0.0', status: 'online' });
    // who may not read the runner does not see its managers
    expect((await fx.call('GET', `/runners/${created.id}/managers`, { token: developer.token })).status).toBe(404);
    expect((await fx.call('GET', `/runners/${created.id}/managers`, { token: stranger.token })).status).toBe(404);

    // a manager silent for three hours is offline; the runner is online while another manager is
    await fx.server.app.db.query(`UPDATE ci_runner_machines SET contacted_at = now() - interval '3 hours' WHERE system_xid = 's_machine_a'`);
    expect((await fx.call('GET', `/runners/${created.id}/managers`)).body[0]).toMatchObject({ system_id: 's_machine_a', status: 'offline' });
    expect(await fx.root.Runners.show(created.id)).toMatchObject({ status: 'online', version: '15.0.0' });

    // DELETE /runners/managers (gitlab-runner unregister of one machine)
    const removeManager = (systemId: string) =>
      send(fx.server.url, 'DELETE', 'runners/managers', { 'Content-Type': 'application/json' }, Buffer.from(JSON.stringify({ token: created.token, system_id: systemId })));
    const foreign = await send(fx.server.url, 'DELETE', 'runners/managers', { 'Content-Type': 'application/json' }, Buffer.from(JSON.stringify({ token: 'glrt-not-a-runner', system_id: 's_machine_a' })));
    expect(foreign.status).toBe(403);
    expect((await removeManager('s_machine_a')).status).toBe(204);
    const missing = await removeManager('s_machine_a');
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ message: '404 Runner manager not found Not Found' });
    expect((await fx.call('GET', `/runners/${created.id}/managers`)).body.map((m: { system_id: string }) => m.system_id)).toEqual(['s_machine_b', '<legacy>']);
  });
});
