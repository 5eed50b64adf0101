import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../test-support/server.js';

/** Project and group milestones over REST (doc/api/milestones.md, group_milestones.md), with gitbeaker. */
describe(`milestones API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let group: { id: number };
  let project: { id: number; path: string };
  let guest: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    group = { id: (await fx.root.Groups.create('Milestone Group', 'milestone-group')).id as number };
    const created = await fx.root.Projects.create({ name: 'planned', namespaceId: group.id, initializeWithReadme: true });
    project = { id: created.id as number, path: created.path_with_namespace as string };
    guest = await fx.member(project.id, 10);
    reporter = await fx.member(project.id, 20);
    stranger = await fx.server.createUser();
  });
  afterAll(() => fx?.close());

  it('creates, filters, edits, closes, reopens and deletes project milestones', async () => {
    const v1 = await fx.root.ProjectMilestones.create(project.id, 'v1.0', { description: 'First', startDate: '2020-01-01', dueDate: '2020-02-01' });
    expect(v1).toMatchObject({ iid: 1, project_id: project.id, title: 'v1.0', state: 'active', start_date: '2020-01-01', due_date: '2020-02-01', expired: true });
    expect(v1.web_url).toMatch(new RegExp(`/${project.path}/-/milestones/1$`));
    const v2 = await fx.root.ProjectMilestones.create(project.id, 'v2.0');
    expect(v2).toMatchObject({ iid: 2, due_date: null, expired: false });

    const closed = await fx.root.ProjectMilestones.edit(project.id, v1.id, { stateEvent: 'close', title: 'v1.0.0' });
    expect(closed).toMatchObject({ state: 'closed', title: 'v1.0.0' });
    expect((await fx.root.ProjectMilestones.all(project.id, { state: 'active' })).map((m) => m.title)).toEqual(['v2.0']);
    expect((await fx.root.ProjectMilestones.all(project.id, { search: 'first' })).map((m) => m.title)).toEqual(['v1.0.0']);
    expect((await fx.call('GET', `/projects/${project.id}/milestones?iids[]=2`)).body.map((m: { title: string }) => m.title)).toEqual(['v2.0']);
    expect((await fx.call('GET', `/projects/${project.id}/milestones?title=v2.0`)).body).toHaveLength(1);
    expect((await fx.root.ProjectMilestones.edit(project.id, v1.id, { stateEvent: 'activate' })).state).toBe('active');
    await fx.root.ProjectMilestones.remove(project.id, v2.id);
    expect((await fx.call('GET', `/projects/${project.id}/milestones/${v2.id}`)).status).toBe(404);
  });

  it('refuses bad input with GitLab’s 400 and changes nothing', async () => {
    const base = `/projects/${project.id}/milestones`;
    const [existing] = await fx.root.ProjectMilestones.all(project.id);
    expect(await fx.call('POST', base, { body: {} })).toMatchObject({ status: 400, body: { error: 'title is missing' } });
    expect(await fx.call('POST', base, { body: { title: 'x', due_date: '2020-13-01' } })).toMatchObject({ status: 400, body: { message: '400 (Bad request) "due_date" is invalid' } });
    expect(await fx.call('POST', base, { body: { title: 'x', start_date: '2020-02-01', due_date: '2020-01-01' } })).toMatchObject({ status: 400, body: { message: { due_date: ['must be greater than start date'] } } });
    expect(await fx.call('POST', base, { body: { title: existing!.title } })).toMatchObject({ status: 400, body: { message: { title: ['already being used for another group or project milestone.'] } } });
    expect(await fx.call('PUT', `${base}/${existing!.id}`, { body: { state_event: 'explode' } })).toMatchObject({ status: 400 });
    expect(await fx.root.ProjectMilestones.all(project.id)).toHaveLength(1);
    expect((await fx.root.ProjectMilestones.show(project.id, existing!.id)).state).toBe('active');
  });

  it('keeps strangers out (404) and lets only Reporters and above manage milestones', async () => {
    const [existing] = await fx.root.ProjectMilestones.all(project.id);
    for (const token of [stranger.token, null]) {
      expect((await fx.call('GET', `/projects/${project.id}/milestones`, { token })).status).toBe(404);
      expect((await fx.call('GET', `/groups/${group.id}/milestones`, { token })).status).toBe(404);
    }
    expect((await fx.call('PUT', `/projects/${project.id}/milestones/${existing!.id}`, { token: stranger.token, body: { state_event: 'close' } })).status).toBe(404);
    expect((await fx.call('GET', `/projects/${project.id}/milestones`, { token: guest.token })).status).toBe(200);
    expect((await fx.call('POST', `/projects/${project.id}/milestones`, { token: guest.token, body: { title: 'guest' } })).status).toBe(403);
    expect((await fx.call('PUT', `/projects/${project.id}/milestones/${existing!.id}`, { token: guest.token, body: { state_event: 'close' } })).status).toBe(403);
    expect((await fx.call('DELETE', `/projects/${project.id}/milestones/${existing!.id}`, { token: guest.token })).status).toBe(403);
    expect((await fx.root.ProjectMilestones.show(project.id, existing!.id)).state).toBe('active');
    const api = gitbeakerClient(fx.server.url, reporter.token);
    const made = await api.ProjectMilestones.create(project.id, 'reporter plan');
    await api.ProjectMilestones.remove(project.id, made.id);
  });

  it('manages group milestones, offers them to projects, and promotes a project milestone', async () => {
    const groupMilestone = await fx.root.GroupMilestones.create(group.id, 'Q1', { dueDate: '2999-03-31' });
    expect(groupMilestone).toMatchObject({ iid: 1, group_id: group.id, title: 'Q1', expired: false });
    expect(groupMilestone.web_url).toMatch(/\/groups\/milestone-group\/-\/milestones\/1$/);
    expect((await fx.root.GroupMilestones.edit(group.id, groupMilestone.id, { stateEvent: 'close' })).state).toBe('closed');
    expect((await fx.call('GET', `/projects/${project.id}/milestones?include_ancestors=true`)).body.map((m: { title: string }) => m.title)).toEqual(['v1.0.0', 'Q1']);

    const local = await fx.root.ProjectMilestones.create(project.id, 'promoted');
    const promoted = (await fx.call('POST', `/projects/${project.id}/milestones/${local.id}/promote`)).body;
    expect(promoted).toMatchObject({ group_id: group.id, title: 'promoted', iid: 2 });
    expect((await fx.call('GET', `/projects/${project.id}/milestones/${local.id}`)).status).toBe(404);
    await fx.root.GroupMilestones.remove(group.id, groupMilestone.id);
  });
});
