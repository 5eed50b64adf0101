import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** Labels and milestones on merge requests: labels/add_labels/remove_labels, milestone_id, system notes, list filters. */
describe(`merge request labels and milestones (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number };
  let developer: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    const group = await fx.root.Groups.create('Planning', 'planning');
    project = { id: (await fx.root.Projects.create({ name: 'app', namespaceId: group.id as number, initializeWithReadme: true })).id as number };
    for (const [title, color] of [['bug', '#d9534f'], ['priority::high', '#ff0000'], ['priority::low', '#00ff00'], ['ux', '#abc']] as const) {
      ids[title] = (await fx.root.ProjectLabels.create(project.id, title, color)).id;
    }
    ids.group = (await fx.root.GroupLabels.create(group.id, 'team::web', '#333')).id;
    ids.v1 = (await fx.root.ProjectMilestones.create(project.id, 'v1.0')).id;
    ids.q1 = (await fx.root.GroupMilestones.create(group.id, 'Q1 2027')).id;
    for (const branch of ['one', 'two']) {
      await fx.root.Commits.create(project.id, branch, branch, [{ action: 'create', filePath: `${branch}.txt`, content: `${branch}\n` }], { startBranch: 'main' });
    }
    developer = await fx.member(project.id, 30);
    guest = await fx.member(project.id, 20);
    stranger = await fx.server.createUser();
  });
  afterAll(() => fx?.close());

  const notes = async (iid: number) => (await fx.root.MergeRequestNotes.all(project.id, iid, { sort: 'asc' })).filter((note) => note.system).map((note) => note.body);

  it('sets labels and a milestone at creation and shows them, with details on request', async () => {
    const created = await fx.root.MergeRequests.create(project.id, 'one', 'main', 'One', { labels: 'bug,team::web', milestoneId: ids.v1 });
    expect(created.labels).toEqual(['bug', 'team::web']);
    expect(created.milestone).toMatchObject({ id: ids.v1, iid: 1, title: 'v1.0', project_id: project.id, state: 'active' });
    const detailed = await fx.call('GET', `/projects/${project.id}/merge_requests/1?with_labels_details=true`);
    expect(detailed.body.labels).toEqual([
      { id: ids.bug, name: 'bug', description: null, description_html: '', text_color: '#FFFFFF', color: '#d9534f' },
      { id: ids.group, name: 'team::web', description: null, description_html: '', text_color: '#FFFFFF', color: '#333' },
    ]);
    expect(await notes(1)).toEqual([`added ~${ids.bug} ~${ids.group} labels`, 'changed milestone to %1']);
  });

  it('adds, removes and replaces labels with one value per scope, each change a system note', async () => {
    const api = gitbeakerClient(fx.server.url, developer.token);
    expect((await api.MergeRequests.edit(project.id, 1, { addLabels: 'priority::high' })).labels).toEqual(['bug', 'priority::high', 'team::web']);
    expect((await api.MergeRequests.edit(project.id, 1, { addLabels: 'priority::low', removeLabels: 'bug' })).labels).toEqual(['priority::low', 'team::web']);
    // a label named by a Developer (admin_label) that does not exist yet is made, as GitLab does
    expect((await api.MergeRequests.edit(project.id, 1, { labels: ['ux', 'fresh'] })).labels).toEqual(['fresh', 'ux']);
    const fresh = await fx.root.ProjectLabels.show(project.id, 'fresh');
    expect(fresh.color).toBe('#6699cc');
    expect((await notes(1)).slice(2)).toEqual([
      `added ~${ids['priority::high']} label`,
      `added ~${ids['priority::low']} and removed ~${ids.bug} ~${ids['priority::high']} labels`,
      `added ~${ids.ux} ~${fresh.id} and removed ~${ids['priority::low']} ~${ids.group} labels`,
    ]);
    // nothing changes, nothing is noted
    await api.MergeRequests.edit(project.id, 1, { addLabels: 'ux' });
    expect(await notes(1)).toHaveLength(5);
  });

  it('changes and removes the milestone (group milestones too), ignoring one the project may not use', async () => {
    const other = await fx.createProject('elsewhere');
    const foreign = await fx.root.ProjectMilestones.create(other.id, 'foreign');
    expect((await fx.root.MergeRequests.edit(project.id, 1, { milestoneId: ids.q1 })).milestone).toMatchObject({ id: ids.q1, group_id: expect.any(Number), title: 'Q1 2027' });
    expect((await fx.root.MergeRequests.edit(project.id, 1, { milestoneId: 0 })).milestone).toBeNull();
    await fx.root.MergeRequests.edit(project.id, 1, { milestoneId: ids.v1 });
    expect((await fx.root.MergeRequests.edit(project.id, 1, { milestoneId: foreign.id })).milestone).toBeNull();
    expect((await notes(1)).slice(5)).toEqual(['changed milestone to %"Q1 2027"', 'removed milestone %"Q1 2027"', 'changed milestone to %1', 'removed milestone %1']);
  });

  it('filters lists by labels, not[labels] and milestone (None / Any)', async () => {
    await fx.root.MergeRequests.create(project.id, 'two', 'main', 'Two', { labels: 'bug', milestoneId: ids.v1 });
    const titles = async (query: string) => (await fx.call('GET', `/projects/${project.id}/merge_requests?${query}`)).body.map((mr: { title: string }) => mr.title);
    expect(await titles('labels=bug')).toEqual(['Two']);
    expect(await titles('labels=ux,fresh')).toEqual(['One']);
    expect(await titles('labels=ux,bug')).toEqual([]);
    expect(await titles('labels=None')).toEqual([]);
    expect(await titles('labels=Any')).toEqual(['Two', 'One']);
    expect(await titles('not[labels]=bug')).toEqual(['One']);
    expect(await titles('milestone=v1.0')).toEqual(['Two']);
    expect(await titles('milestone=None')).toEqual(['One']);
    expect(await titles('milestone=Any')).toEqual(['Two']);
    expect(await titles('not[milestone]=v1.0')).toEqual(['One']);
    const counted = await fx.call('GET', `/projects/${project.id}/merge_requests?labels=bug&milestone=v1.0&state=opened&per_page=1`);
    expect([counted.headers.get('x-total'), counted.body.length]).toEqual(['1', 1]);
    expect((await fx.call('GET', `/projects/${project.id}/labels/bug?with_counts=true`)).status).toBe(200);
    const list = await fx.call('GET', `/projects/${project.id}/labels?with_counts=true&search=bug`);
    expect(list.body[0]).toMatchObject({ name: 'bug', open_merge_requests_count: 1 });
  });

  it('refuses strangers and Reporters, and bad input changes nothing', async () => {
    const path = `/projects/${project.id}/merge_requests/2`;
    expect((await fx.call('PUT', path, { token: stranger.token, body: { add_labels: 'ux' } })).status).toBe(404);
    expect((await fx.call('PUT', path, { token: guest.token, body: { add_labels: 'ux', milestone_id: 0 } })).status).toBe(403);
    expect(await fx.call('PUT', path, { body: { milestone_id: 'soon' } })).toMatchObject({ status: 400, body: { error: 'milestone_id is invalid' } });
    expect(await fx.call('PUT', path, { body: { add_labels: 'x'.repeat(300) } })).toMatchObject({ status: 400 });
    const after = await fx.root.MergeRequests.show(project.id, 2);
    expect(after.labels).toEqual(['bug']);
    expect(after.milestone).toMatchObject({ id: ids.v1 });
    expect((await fx.root.ProjectLabels.all(project.id)).some((label) => label.name.startsWith('xxx'))).toBe(false);
  });

  it('renders ~label and %milestone references for readers of the project only', async () => {
    const render = (token: string | null, text: string) => fx.call('POST', '/markdown', { token, body: { text, gfm: true, project: 'planning/app' } });
    const seen = await render(developer.token, `~bug ~"priority::high" ~${ids.ux} ~"team::web" %1 %"Q1 2027" ~missing`);
    expect(seen.status).toBe(201);
    expect(seen.body.html).toContain('style="background-color:#d9534f;color:#FFFFFF">bug</span>');
    expect(seen.body.html).toContain('<span class="gl-label-text" style="background-color:#ff0000;color:#FFFFFF">priority</span><span class="gl-label-text-scoped">high</span>');
    expect(seen.body.html).toContain('>ux</span>');
    expect(seen.body.html).toContain('href="/planning/app/-/milestones/1" title="v1.0" class="gfm gfm-milestone" data-reference-type="milestone" data-project-path="planning/app">%v1.0</a>');
    expect(seen.body.html).toContain('href="/groups/planning/-/milestones/1"');
    expect(seen.body.html).toContain('>%"Q1 2027"</a>');
    expect(seen.body.html).toContain('~missing');
    expect(seen.body.html.match(/gfm-label/g)).toHaveLength(4);
    // a stranger names the private project's labels from elsewhere: plain text
    const hidden = await fx.call('POST', '/markdown', { token: stranger.token, body: { text: 'planning/app~bug planning/app%1', gfm: true } });
    expect(hidden.body.html).not.toContain('gfm-');
    expect(hidden.body.html).toContain('planning/app~bug');
  });
});
