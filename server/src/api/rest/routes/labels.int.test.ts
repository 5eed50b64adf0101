import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../test-support/server.js';

/** Project and group labels over REST (doc/api/labels.md, group_labels.md), with gitbeaker. */
describe(`labels API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let group: { id: number; full_path: string };
  let project: { id: number };
  let guest: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    const created = await fx.root.Groups.create('Label Group', 'label-group', { visibility: 'private' });
    group = { id: created.id as number, full_path: created.full_path as string };
    project = { id: (await fx.root.Projects.create({ name: 'labelled', namespaceId: group.id, initializeWithReadme: true })).id as number };
    guest = await fx.member(project.id, 10);
    reporter = await fx.member(project.id, 20);
    stranger = await fx.server.createUser();
  });
  afterAll(() => fx?.close());

  it('creates, lists, shows, edits and deletes project labels as GitLab answers', async () => {
    const created = await fx.root.ProjectLabels.create(project.id, 'bug', '#d9534f', { description: 'Broken <things>', priority: 1 });
    expect(created).toMatchObject({ name: 'bug', color: '#d9534f', text_color: '#FFFFFF', description: 'Broken <things>', description_html: 'Broken &lt;things&gt;', priority: 1, is_project_label: true, subscribed: false });
    const named = await fx.root.ProjectLabels.create(project.id, 'needs review', 'lightgreen');
    expect(named).toMatchObject({ color: '#90EE90', text_color: '#1F1E24', priority: null });
    await fx.root.GroupLabels.create(group.id, 'workflow::doing', '#fff');

    const list = await fx.root.ProjectLabels.all(project.id);
    expect(list.map((label) => [label.name, label.is_project_label])).toEqual([
      ['bug', true],
      ['needs review', true],
      ['workflow::doing', false],
    ]);
    expect((await fx.root.ProjectLabels.all(project.id, { includeAncestorGroups: false })).map((label) => label.name)).toEqual(['bug', 'needs review']);
    expect((await fx.root.ProjectLabels.all(project.id, { search: 'REV' })).map((label) => label.name)).toEqual(['needs review']);
    const counted = await fx.call('GET', `/projects/${project.id}/labels?with_counts=true`);
    expect(counted.body[0]).toMatchObject({ open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 });
    expect(counted.headers.get('x-total')).toBe('3');

    expect((await fx.root.ProjectLabels.show(project.id, 'needs review')).id).toBe(named.id);
    expect((await fx.root.ProjectLabels.show(project.id, created.id)).name).toBe('bug');
    const edited = await fx.root.ProjectLabels.edit(project.id, created.id, { newName: 'defect', description: 'Broken', priority: 3 });
    expect(edited).toMatchObject({ name: 'defect', color: '#d9534f', description: 'Broken', priority: 3 });
    await fx.root.ProjectLabels.remove(project.id, 'needs review');
    expect((await fx.call('GET', `/projects/${project.id}/labels/${encodeURIComponent('needs review')}`)).status).toBe(404);
  });

  it('refuses bad input with GitLab’s 4xx and changes nothing', async () => {
    const before = (await fx.root.ProjectLabels.all(project.id)).length;
    const base = `/projects/${project.id}/labels`;
    expect(await fx.call('POST', base, { body: { name: 'x', color: 'not-a-colour' } })).toMatchObject({ status: 400, body: { message: { color: ['must be a valid color code'] } } });
    expect(await fx.call('POST', base, { body: { name: 'x', color: '#12' } })).toMatchObject({ status: 400 });
    expect(await fx.call('POST', base, { body: { name: 'a,b', color: '#123' } })).toMatchObject({ status: 400, body: { message: { title: ['is invalid'] } } });
    expect(await fx.call('POST', base, { body: { color: '#123' } })).toMatchObject({ status: 400, body: { error: 'name is missing' } });
    expect(await fx.call('POST', base, { body: { name: 'defect', color: '#123' } })).toMatchObject({ status: 409, body: { message: 'Label already exists' } });
    expect(await fx.call('PUT', `${base}/defect`, { body: {} })).toMatchObject({ status: 400 });
    expect(await fx.call('PUT', `${base}/defect`, { body: { priority: -1 } })).toMatchObject({ status: 400 });
    expect((await fx.call('PUT', `${base}/nothing`, { body: { color: '#fff' } })).status).toBe(404);
    expect((await fx.root.ProjectLabels.all(project.id)).length).toBe(before);
    expect((await fx.root.ProjectLabels.show(project.id, 'defect')).color).toBe('#d9534f');
  });

  it('keeps strangers out (404) and lets only Reporters and above manage labels', async () => {
    for (const token of [stranger.token, null]) {
      expect((await fx.call('GET', `/projects/${project.id}/labels`, { token })).status).toBe(404);
      expect((await fx.call('GET', `/groups/${group.id}/labels`, { token })).status).toBe(404);
    }
    expect((await fx.call('POST', `/projects/${project.id}/labels`, { token: stranger.token, body: { name: 'spy', color: '#000' } })).status).toBe(404);
    expect((await fx.call('DELETE', `/projects/${project.id}/labels/defect`, { token: stranger.token })).status).toBe(404);

    expect((await fx.call('GET', `/projects/${project.id}/labels`, { token: guest.token })).status).toBe(200);
    expect((await fx.call('POST', `/projects/${project.id}/labels`, { token: guest.token, body: { name: 'guest', color: '#000' } })).status).toBe(403);
    expect((await fx.call('PUT', `/projects/${project.id}/labels/defect`, { token: guest.token, body: { color: '#000' } })).status).toBe(403);
    expect((await fx.call('DELETE', `/projects/${project.id}/labels/defect`, { token: guest.token })).status).toBe(403);
    expect((await fx.root.ProjectLabels.show(project.id, 'defect')).color).toBe('#d9534f');

    const api = gitbeakerClient(fx.server.url, reporter.token);
    const made = await api.ProjectLabels.create(project.id, 'by reporter', '#abcdef');
    await api.ProjectLabels.remove(project.id, made.id);
    // a project Reporter is nobody in the group: its labels are not theirs to manage
    expect((await fx.call('POST', `/groups/${group.id}/labels`, { token: reporter.token, body: { name: 'g', color: '#000' } })).status).toBe(404);
  });

  it('manages group labels and promotes a project label to its group', async () => {
    const label = await fx.root.GroupLabels.create(group.id, 'area::ui', 'blue', { description: 'UI' });
    expect(label).toMatchObject({ name: 'area::ui', color: '#0000FF', text_color: '#FFFFFF' });
    expect(label).not.toHaveProperty('priority');
    expect((await fx.root.GroupLabels.edit(group.id, label.id, { newName: 'area::web' })).name).toBe('area::web');
    expect((await fx.root.GroupLabels.all(group.id)).map((l) => l.name)).toEqual(['area::web', 'workflow::doing']);
    // a project may prioritise a group label but not rename it
    expect(await fx.call('PUT', `/projects/${project.id}/labels/${label.id}`, { body: { priority: 2 } })).toMatchObject({ status: 200, body: { priority: 2, is_project_label: false } });
    expect((await fx.call('PUT', `/projects/${project.id}/labels/${label.id}`, { body: { new_name: 'x' } })).status).toBe(404);
    await fx.root.GroupLabels.remove(group.id, label.id);

    const local = await fx.root.ProjectLabels.create(project.id, 'promote me', '#123456');
    const promoted = await fx.root.ProjectLabels.promote(project.id, local.id);
    expect(promoted).toMatchObject({ name: 'promote me', color: '#123456' });
    expect(promoted.id).not.toBe(local.id);
    expect((await fx.root.ProjectLabels.show(project.id, 'promote me')).is_project_label).toBe(false);
    expect((await fx.root.GroupLabels.show(group.id, 'promote me')).id).toBe(promoted.id);
  });

  it('subscribes and unsubscribes to project and group labels as GitLab answers (201, then 304 when already so)', async () => {
    const own = await fx.root.ProjectLabels.create(project.id, 'watch me', '#112233');
    const inherited = await fx.root.GroupLabels.create(group.id, 'group watch', '#445566');
    const api = gitbeakerClient(fx.server.url, guest.token);
    // gitbeaker's Labels.subscribe posts to …/issues/:id/subscribe (a bug in the client), so the
    // subscription calls are plain HTTP; the reads go through gitbeaker.
    const base = `/projects/${project.id}/labels`;
    expect(await fx.call('POST', `${base}/${own.id}/subscribe`, { token: guest.token })).toMatchObject({ status: 201, body: { id: own.id, subscribed: true, is_project_label: true } });
    const again = await fx.call('POST', `${base}/${own.id}/subscribe`, { token: guest.token });
    expect(again.status).toBe(304);
    expect(again.raw.length).toBe(0);
    // a group label is subscribed to within the project, by title as well as by id
    expect(await fx.call('POST', `${base}/${encodeURIComponent('group watch')}/subscribe`, { token: guest.token })).toMatchObject({ status: 201, body: { id: inherited.id, subscribed: true } });
    const listed = await api.ProjectLabels.all(project.id);
    expect(listed.filter((label) => label.subscribed).map((label) => label.name)).toEqual(['group watch', 'watch me']);
    expect((await api.ProjectLabels.show(project.id, own.id)).subscribed).toBe(true);
    // subscriptions are the caller's own
    expect((await fx.root.ProjectLabels.show(project.id, own.id)).subscribed).toBe(false);

    expect(await fx.call('POST', `${base}/${own.id}/unsubscribe`, { token: guest.token })).toMatchObject({ status: 201, body: { subscribed: false } });
    expect((await fx.call('POST', `${base}/${own.id}/unsubscribe`, { token: guest.token })).status).toBe(304);

    // from the group, a group label's subscription is the group's, not the project's
    expect((await fx.root.GroupLabels.show(group.id, inherited.id)).subscribed).toBe(false);
    expect(await fx.call('POST', `/groups/${group.id}/labels/${inherited.id}/subscribe`)).toMatchObject({ status: 201, body: { subscribed: true } });
    expect((await fx.call('POST', `/groups/${group.id}/labels/${inherited.id}/subscribe`)).status).toBe(304);
    expect((await fx.root.GroupLabels.all(group.id)).find((label) => label.id === inherited.id)?.subscribed).toBe(true);
    expect(await fx.call('POST', `/groups/${group.id}/labels/${inherited.id}/unsubscribe`)).toMatchObject({ status: 201, body: { subscribed: false } });
    expect((await fx.call('POST', `/groups/${group.id}/labels/${inherited.id}/unsubscribe`)).status).toBe(304);
  });

  it('refuses label subscriptions to signed-out callers (401), strangers and unknown labels (404)', async () => {
    const label = await fx.root.ProjectLabels.create(project.id, 'private watch', '#778899');
    expect(await fx.call('POST', `/projects/${project.id}/labels/${label.id}/subscribe`, { token: null })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await fx.call('POST', `/projects/${project.id}/labels/${label.id}/subscribe`, { token: stranger.token })).toMatchObject({ status: 404 });
    expect(await fx.call('POST', `/groups/${group.id}/labels/${label.id}/subscribe`, { token: stranger.token })).toMatchObject({ status: 404 });
    // a project label is not the group's
    expect(await fx.call('POST', `/groups/${group.id}/labels/${label.id}/subscribe`)).toMatchObject({ status: 404, body: { message: '404 Label Not Found' } });
    expect(await fx.call('POST', `/projects/${project.id}/labels/999999/subscribe`)).toMatchObject({ status: 404, body: { message: '404 Label Not Found' } });
    expect((await fx.root.ProjectLabels.show(project.id, label.id)).subscribed).toBe(false);
  });
});
