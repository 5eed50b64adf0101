/**
 * The pipeline schedules REST API through @gitbeaker/rest: GitLab's shapes, validation, who is
 * refused, variables, play, and a due schedule run exactly once by two concurrent sweeps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../test-support/server.js';

const CONFIG = `build:
  script: make
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule"
nightly-only-not:
  script: make push
  rules:
    - if: $CI_PIPELINE_SOURCE == "push"
`;

describe(`pipeline schedules API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let otherDeveloper: TestUser;
  let maintainer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;

  const db = () => fx.server.app.db;
  const runner = () => fx.server.app.services.pipelineScheduleRunner;
  const makeDue = (id: number) => db().query(`UPDATE ci_pipeline_schedules SET next_run_at = now() - interval '1 minute' WHERE id = $1`, [id]);
  const scheduleRow = async (id: number) => (await db().query<{ next_run_at: Date; last_skip_reason: string | null }>('SELECT * FROM ci_pipeline_schedules WHERE id = $1', [id])).rows[0]!;
  /** Waits until no run job of a schedule is pending or running. */
  const runsSettled = () =>
    eventually(async () => (await db().query(`SELECT 1 FROM background_jobs WHERE queue = 'pipelines.run_schedule' AND state IN ('pending', 'running')`)).rowCount === 0, { what: 'schedule runs to finish' });
  const schedulePipelines = async (id: number) => (await fx.call('GET', `/projects/${project.id}/pipeline_schedules/${id}/pipelines`)).body as { id: number; source: string }[];

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('schedules');
    developer = await fx.member(project.id, 30);
    otherDeveloper = await fx.member(project.id, 30);
    maintainer = await fx.member(project.id, 40);
    reporter = await fx.member(project.id, 20);
    stranger = await fx.server.createUser();
    await fx.root.ProtectedBranches.remove(project.id, 'main');
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
    await fx.root.Tags.create(project.id, 'v1', 'main');
  });
  afterAll(() => fx?.close());

  it("creates, lists, shows and edits a schedule in GitLab's shape (gitbeaker)", async () => {
    const client = gitbeakerClient(fx.server.url, developer.token);
    const created = (await client.PipelineSchedules.create(project.id, 'Nightly', 'main', '0 4 * * *', { cronTimezone: 'Europe/Berlin' })) as Record<string, any>;
    expect(Object.keys(created).sort()).toEqual(['active', 'created_at', 'cron', 'cron_timezone', 'description', 'id', 'last_pipeline', 'next_run_at', 'owner', 'ref', 'updated_at', 'variables'].sort());
    expect(created).toMatchObject({ description: 'Nightly', ref: 'refs/heads/main', cron: '0 4 * * *', cron_timezone: 'Europe/Berlin', active: true, last_pipeline: null, variables: [], owner: { username: developer.username } });
    // 04:00 in Berlin is 02:00 or 03:00 UTC
    expect(created.next_run_at).toMatch(/T0[23]:00:00\.000Z$/);
    expect(new Date(created.next_run_at).getTime()).toBeGreaterThan(Date.now());

    const tagged = (await client.PipelineSchedules.create(project.id, 'On the tag', 'v1', '@daily', { active: false })) as Record<string, any>;
    expect(tagged).toMatchObject({ ref: 'refs/tags/v1', cron_timezone: 'UTC', active: false });
    expect(tagged.next_run_at).toMatch(/T00:00:00\.000Z$/);

    const reader = gitbeakerClient(fx.server.url, reporter.token);
    const all = (await reader.PipelineSchedules.all(project.id)) as Record<string, any>[];
    expect(all.map((s) => s.id)).toEqual([created.id, tagged.id]);
    expect(Object.keys(all[0]!)).not.toContain('last_pipeline');
    expect(((await reader.PipelineSchedules.all(project.id, { scope: 'active' })) as { id: number }[]).map((s) => s.id)).toEqual([created.id]);
    expect(((await reader.PipelineSchedules.all(project.id, { scope: 'inactive' })) as { id: number }[]).map((s) => s.id)).toEqual([tagged.id]);
    const list = await fx.call('GET', `/projects/${project.id}/pipeline_schedules?per_page=1`, { token: reporter.token });
    expect(list.headers.get('x-total')).toBe('2');
    // a Reporter sees the schedule but not its variables
    expect(Object.keys((await reader.PipelineSchedules.show(project.id, created.id)) as object)).not.toContain('variables');

    const edited = (await client.PipelineSchedules.edit(project.id, created.id, { cron: '30 1 * * mon', description: 'Weekly' })) as Record<string, any>;
    expect(edited).toMatchObject({ cron: '30 1 * * mon', description: 'Weekly', ref: 'refs/heads/main', cron_timezone: 'Europe/Berlin' });
    expect(new Date(edited.next_run_at).getUTCDay()).toBe(1);

    await client.PipelineSchedules.remove(project.id, tagged.id);
    expect((await fx.call('GET', `/projects/${project.id}/pipeline_schedules/${tagged.id}`)).status).toBe(404);
    await client.PipelineSchedules.remove(project.id, created.id);
  });

  it("answers GitLab's validation messages with 400 and stores nothing", async () => {
    const cases: [Record<string, unknown>, unknown][] = [
      [{ description: 'x', ref: 'main', cron: 'not a cron' }, { cron: [' is invalid syntax'] }],
      [{ description: 'x', ref: 'main', cron: '* * * * * *' }, { cron: [' is invalid syntax'] }],
      [{ description: 'x', ref: 'main', cron: '0 1 * * *', cron_timezone: 'Mars/Olympus' }, { cron_timezone: [' is invalid syntax'] }],
      [{ description: ' ', ref: 'main', cron: '0 1 * * *' }, { description: ["can't be blank"] }],
      [{ description: 'x', ref: 'no-such-branch', cron: '0 1 * * *' }, { ref: ['is invalid'] }],
    ];
    for (const [body, message] of cases) {
      const response = await fx.call('POST', `/projects/${project.id}/pipeline_schedules`, { token: developer.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toEqual({ message });
    }
    for (const missing of ['description', 'ref', 'cron']) {
      const body: Record<string, string> = { description: 'x', ref: 'main', cron: '0 1 * * *' };
      delete body[missing];
      expect((await fx.call('POST', `/projects/${project.id}/pipeline_schedules`, { token: developer.token, body })).status).toBe(400);
    }
    expect((await fx.call('GET', `/projects/${project.id}/pipeline_schedules?scope=bogus`)).status).toBe(400);
    expect((await fx.call('GET', `/projects/${project.id}/pipeline_schedules`)).body).toEqual([]);
  });

  it('refuses strangers (404), Reporters (403) and Developers on schedules they do not own (403); Maintainers edit and take over', async () => {
    const schedule = (await gitbeakerClient(fx.server.url, developer.token).PipelineSchedules.create(project.id, 'Mine', 'main', '0 1 * * *')) as { id: number };
    const one = `/projects/${project.id}/pipeline_schedules/${schedule.id}`;
    const calls: [string, string, Record<string, unknown>?][] = [
      ['GET', `/projects/${project.id}/pipeline_schedules`],
      ['POST', `/projects/${project.id}/pipeline_schedules`, { description: 'x', ref: 'main', cron: '0 1 * * *' }],
      ['GET', one],
      ['PUT', one, { description: 'theirs' }],
      ['DELETE', one],
      ['POST', `${one}/take_ownership`],
      ['POST', `${one}/play`],
      ['GET', `${one}/pipelines`],
      ['POST', `${one}/variables`, { key: 'K', value: 'v' }],
      ['PUT', `${one}/variables/K`, { value: 'w' }],
      ['DELETE', `${one}/variables/K`],
    ];
    for (const [method, path, body] of calls) {
      expect((await fx.call(method, path, { token: stranger.token, body })).status, `${method} ${path} (stranger)`).toBe(404);
      const asReporter = (await fx.call(method, path, { token: reporter.token, body })).status;
      expect(asReporter, `${method} ${path} (reporter)`).toBe(method === 'GET' ? 200 : 403);
    }
    for (const [method, path, body] of calls.slice(3)) {
      if (method === 'GET' || path.endsWith('/play')) continue;
      expect((await fx.call(method, path, { token: otherDeveloper.token, body })).status, `${method} ${path} (other developer)`).toBe(403);
    }
    expect((await fx.call('GET', one, { token: 'nope' })).status).toBe(401);

    const edited = await fx.call('PUT', one, { token: maintainer.token, body: { description: 'Edited by a maintainer' } });
    expect(edited).toMatchObject({ status: 200, body: { description: 'Edited by a maintainer', owner: { username: developer.username } } });
    const taken = await gitbeakerClient(fx.server.url, maintainer.token).PipelineSchedules.takeOwnership(project.id, schedule.id);
    expect(taken).toMatchObject({ owner: { username: maintainer.username } });
    // no longer the owner: the developer may not edit it any more
    expect((await fx.call('PUT', one, { token: developer.token, body: { description: 'again' } })).status).toBe(403);
    expect((await fx.call('DELETE', one, { token: maintainer.token })).status).toBe(204);
    expect((await fx.call('GET', one)).status).toBe(404);
  });

  it('manages variables (gitbeaker) and shows them to those who may edit the schedule', async () => {
    const client = gitbeakerClient(fx.server.url, developer.token);
    const schedule = (await client.PipelineSchedules.create(project.id, 'With variables', 'main', '0 1 * * *')) as { id: number };
    expect(await client.PipelineScheduleVariables.create(project.id, schedule.id, 'TARGET', 'staging')).toEqual({ variable_type: 'env_var', key: 'TARGET', value: 'staging' });
    expect(await client.PipelineScheduleVariables.edit(project.id, schedule.id, 'TARGET', 'production', { variableType: 'file' })).toEqual({ variable_type: 'file', key: 'TARGET', value: 'production' });
    const duplicate = await fx.call('POST', `/projects/${project.id}/pipeline_schedules/${schedule.id}/variables`, { token: developer.token, body: { key: 'TARGET', value: 'x' } });
    expect(duplicate).toMatchObject({ status: 400, body: { message: { key: ['has already been taken'] } } });
    const badKey = await fx.call('POST', `/projects/${project.id}/pipeline_schedules/${schedule.id}/variables`, { token: developer.token, body: { key: 'BAD-KEY', value: 'x' } });
    expect(badKey.status).toBe(400);
    expect((await fx.call('PUT', `/projects/${project.id}/pipeline_schedules/${schedule.id}/variables/NOPE`, { token: developer.token, body: { value: 'x' } })).status).toBe(404);
    await client.PipelineScheduleVariables.create(project.id, schedule.id, 'EXTRA', 'x');
    expect(((await client.PipelineSchedules.show(project.id, schedule.id)) as Record<string, any>).variables).toEqual([
      { variable_type: 'file', key: 'TARGET', value: 'production' },
      { variable_type: 'env_var', key: 'EXTRA', value: 'x' },
    ]);
    const removed = await fx.call('DELETE', `/projects/${project.id}/pipeline_schedules/${schedule.id}/variables/EXTRA`, { token: developer.token });
    expect(removed).toMatchObject({ status: 200, body: { key: 'EXTRA', value: 'x' } });
    await client.PipelineSchedules.remove(project.id, schedule.id);
  });

  it('runs a due schedule exactly once when two sweeps claim at the same time, as its owner with its variables', async () => {
    const client = gitbeakerClient(fx.server.url, developer.token);
    const schedule = (await client.PipelineSchedules.create(project.id, 'Due', 'main', '*/5 * * * *')) as { id: number };
    await client.PipelineScheduleVariables.create(project.id, schedule.id, 'NIGHTLY', 'yes');
    await makeDue(schedule.id);

    const claimed = await Promise.all([runner().claimDue(), runner().claimDue()]);
    // the periodic sweep of the running server may have claimed it first; either way, once
    expect(claimed[0]! + claimed[1]!).toBeLessThanOrEqual(1);
    await eventually(async () => (await schedulePipelines(schedule.id)).length > 0, { what: 'the scheduled pipeline' });
    await runsSettled();
    // and a third sweep finds nothing due
    expect(await runner().claimDue()).toBe(0);
    await runsSettled();

    const pipelines = (await client.PipelineSchedules.allTriggeredPipelines(project.id, schedule.id)) as { id: number }[];
    expect(pipelines).toHaveLength(1);
    const pipeline = (await fx.root.Pipelines.show(project.id, pipelines[0]!.id)) as Record<string, any>;
    expect(pipeline).toMatchObject({ source: 'schedule', ref: 'main', tag: false, user: { username: developer.username } });
    // the job ruled in by `$CI_PIPELINE_SOURCE == "schedule"`, not the push-only one
    expect(((await fx.root.Jobs.all(project.id, { pipelineId: pipeline.id } as never)) as { name: string }[]).map((j) => j.name)).toEqual(['build']);
    expect(await fx.root.Pipelines.allVariables(project.id, pipeline.id)).toEqual([{ variable_type: 'env_var', key: 'NIGHTLY', value: 'yes' }]);
    expect((await fx.root.Pipelines.all(project.id, { source: 'schedule' } as never)).map((p) => p.id)).toContain(pipeline.id);

    const shown = (await client.PipelineSchedules.show(project.id, schedule.id)) as Record<string, any>;
    expect(shown.last_pipeline).toMatchObject({ id: pipeline.id, ref: 'main', source: 'schedule' });
    expect(new Date(shown.next_run_at).getTime()).toBeGreaterThan(Date.now());
    expect(new Date(shown.next_run_at).getUTCMinutes() % 5).toBe(0);
    await client.PipelineSchedules.remove(project.id, schedule.id);
  });

  it('keeps one sweep job pending however many processes schedule it', async () => {
    await Promise.all([runner().schedule(), runner().schedule(), runner().schedule()]);
    const { rows } = await db().query<{ state: string }>(`SELECT state FROM background_jobs WHERE queue = 'pipelines.run_due_schedules' AND state IN ('pending', 'running')`);
    // one pending; a sweep of the running server may be running at this moment, and schedules the next itself
    expect(rows.filter((row) => row.state === 'pending').length).toBeLessThanOrEqual(1);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.filter((row) => row.state === 'running').length + 1).toBeGreaterThanOrEqual(rows.length);
  });

  it('plays a schedule now (201) as the caller, leaving next_run_at where it was', async () => {
    const schedule = (await gitbeakerClient(fx.server.url, developer.token).PipelineSchedules.create(project.id, 'Played', 'main', '0 1 * * *')) as { id: number; next_run_at: string };
    expect(await gitbeakerClient(fx.server.url, maintainer.token).PipelineSchedules.run(project.id, schedule.id)).toEqual({ message: '201 Created' });
    const [pipeline] = await eventually(async () => {
      const list = await schedulePipelines(schedule.id);
      return list.length > 0 ? list : undefined;
    });
    expect(await fx.root.Pipelines.show(project.id, pipeline!.id)).toMatchObject({ source: 'schedule', user: { username: maintainer.username } });
    expect((await scheduleRow(schedule.id)).next_run_at.toISOString()).toBe(schedule.next_run_at);
    await fx.call('DELETE', `/projects/${project.id}/pipeline_schedules/${schedule.id}`, { token: developer.token });
  });

  it('skips a run, recording why, when its owner may no longer run pipelines on the ref', async () => {
    const schedule = (await gitbeakerClient(fx.server.url, developer.token).PipelineSchedules.create(project.id, 'Protected later', 'main', '0 1 * * *')) as { id: number };
    await fx.root.ProtectedBranches.create(project.id, 'main');
    try {
      await makeDue(schedule.id);
      await runner().claimDue();
      await eventually(async () => (await scheduleRow(schedule.id)).last_skip_reason, { what: 'the recorded skip' });
      expect((await scheduleRow(schedule.id)).last_skip_reason).toBe("You do not have sufficient permission to run a pipeline on 'main'. Please select a different branch or contact your administrator for assistance.");
      expect(await schedulePipelines(schedule.id)).toEqual([]);
      expect(new Date((await scheduleRow(schedule.id)).next_run_at).getTime()).toBeGreaterThan(Date.now());
      // nor may the developer play it
      expect((await fx.call('POST', `/projects/${project.id}/pipeline_schedules/${schedule.id}/play`, { token: developer.token })).status).toBe(403);
    } finally {
      await fx.root.ProtectedBranches.remove(project.id, 'main');
    }
  });
});
