import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';
import { RESOURCE_NOT_AVAILABLE } from '../editor/errors.js';
import { graphql, type Credentials } from '../testing.js';

/**
 * Labels and milestones over GraphQL against the real server: a merge request's `labels` and
 * `milestone`, a project's `labels(searchTerm:)`, and GitLab's mergeRequestSetLabels and
 * mergeRequestSetMilestone mutations with the system notes they leave; refusals for strangers
 * and too-low roles.
 */
const MR_FIELDS = `
  labels { count nodes { id title color textColor description } }
  milestone { id title dueDate state webPath }
`;
const READ = `query ($path: ID!, $iid: String!) { project(fullPath: $path) { mergeRequest(iid: $iid) { ${MR_FIELDS} } } }`;
const SET_LABELS = `mutation ($path: ID!, $iid: String!, $labelIds: [LabelID!]!, $mode: MutationOperationMode) {
  mergeRequestSetLabels(input: { projectPath: $path, iid: $iid, labelIds: $labelIds, operationMode: $mode }) { errors mergeRequest { labels { nodes { title } } } }
}`;
const SET_MILESTONE = `mutation ($path: ID!, $iid: String!, $milestoneId: MilestoneID) {
  mergeRequestSetMilestone(input: { projectPath: $path, iid: $iid, milestoneId: $milestoneId }) { errors mergeRequest { milestone { title } } }
}`;

describe(`GraphQL labels and milestones (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let path: string;
  let projectId: number;
  let iid: number;
  let bug: { id: number };
  let ux: { id: number };
  let groupLabel: { id: number };
  let milestone: { id: number; iid: number };
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  const run = (query: string, variables: Record<string, unknown>, credentials: Credentials = { token: fx.server.root.token }) => graphql(fx.server.url, query, variables, credentials);
  const labelTitles = async () => ((await run(READ, { path, iid: String(iid) })).body.data.project.mergeRequest.labels.nodes as Array<{ title: string }>).map((label) => label.title);

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    const group = await fx.root.Groups.create('GQL Labels', 'gql-labels', { visibility: 'private' });
    const project = await fx.root.Projects.create({ name: 'planned', namespaceId: group.id as number, initializeWithReadme: true });
    projectId = project.id as number;
    path = project.path_with_namespace as string;
    await fx.root.Branches.create(projectId, 'feature', 'main');
    await fx.root.RepositoryFiles.create(projectId, 'plan.md', 'feature', 'plan\n', 'Add the plan');
    bug = await fx.root.ProjectLabels.create(projectId, 'bug', '#d9534f', { description: 'Broken' });
    ux = await fx.root.ProjectLabels.create(projectId, 'ux', '#eeeeee');
    groupLabel = await fx.root.GroupLabels.create(group.id as number, 'area::web', '#0000ff');
    milestone = await fx.root.ProjectMilestones.create(projectId, 'v1.0', { dueDate: '2999-01-31' });
    iid = (await fx.root.MergeRequests.create(projectId, 'feature', 'main', 'Plan')).iid as number;
    developer = await fx.member(projectId, 30);
    reporter = await fx.member(projectId, 20);
    stranger = await fx.server.createUser();
  });
  afterAll(() => fx?.close());

  it('reads a merge request’s labels and milestone with GitLab’s fields', async () => {
    await fx.root.MergeRequests.edit(projectId, iid, { labels: 'bug,area::web', milestoneId: milestone.id });
    const response = await run(READ, { path, iid: String(iid) });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.project.mergeRequest).toEqual({
      labels: {
        count: 2,
        nodes: [
          { id: `gid://gitlab/GroupLabel/${groupLabel.id}`, title: 'area::web', color: '#0000ff', textColor: '#FFFFFF', description: null },
          { id: `gid://gitlab/ProjectLabel/${bug.id}`, title: 'bug', color: '#d9534f', textColor: '#FFFFFF', description: 'Broken' },
        ],
      },
      milestone: { id: `gid://gitlab/Milestone/${milestone.id}`, title: 'v1.0', dueDate: '2999-01-31', state: 'active', webPath: `/${path}/-/milestones/${milestone.iid}` },
    });
  });

  it('lists a project’s labels by searchTerm, its groups’ only when asked', async () => {
    const query = `query ($path: ID!, $term: String, $up: Boolean) { project(fullPath: $path) { labels(searchTerm: $term, includeAncestorGroups: $up) { count nodes { title } } } }`;
    expect((await run(query, { path })).body.data.project.labels).toEqual({ count: 2, nodes: [{ title: 'bug' }, { title: 'ux' }] });
    expect((await run(query, { path, up: true })).body.data.project.labels.nodes.map((n: { title: string }) => n.title)).toEqual(['area::web', 'bug', 'ux']);
    expect((await run(query, { path, term: 'U', up: true })).body.data.project.labels.nodes.map((n: { title: string }) => n.title)).toEqual(['bug', 'ux']);
    expect((await run(query, { path }, { token: stranger.token })).body).toEqual({ data: { project: null } });
  });

  it('mergeRequestSetLabels replaces, appends and removes by global id, with the system notes', async () => {
    const set = (labelIds: string[], mode?: string, credentials?: Credentials) => run(SET_LABELS, { path, iid: String(iid), labelIds, mode }, credentials);
    const replaced = await set([`gid://gitlab/ProjectLabel/${ux.id}`], undefined, { token: developer.token });
    expect(replaced.body).toEqual({ data: { mergeRequestSetLabels: { errors: [], mergeRequest: { labels: { nodes: [{ title: 'ux' }] } } } } });
    // GitLab's GlobalIDType[Label] takes the base class's ids as well
    expect((await set([`gid://gitlab/Label/${bug.id}`, `gid://gitlab/GroupLabel/${groupLabel.id}`], 'APPEND')).body.data.mergeRequestSetLabels.mergeRequest.labels.nodes).toEqual([
      { title: 'area::web' },
      { title: 'bug' },
      { title: 'ux' },
    ]);
    expect((await set([`gid://gitlab/ProjectLabel/${ux.id}`], 'REMOVE')).body.data.mergeRequestSetLabels.mergeRequest.labels.nodes).toEqual([{ title: 'area::web' }, { title: 'bug' }]);
    const notes = (await fx.root.MergeRequestNotes.all(projectId, iid)).filter((note) => note.system).map((note) => note.body);
    expect(notes).toEqual(expect.arrayContaining([`added ~${ux.id} and removed ~${groupLabel.id} ~${bug.id} labels`, `added ~${bug.id} ~${groupLabel.id} labels`, `removed ~${ux.id} label`]));
  });

  it('mergeRequestSetMilestone sets and unsets the milestone, with the system notes', async () => {
    const set = (milestoneId: string | null, credentials?: Credentials) => run(SET_MILESTONE, { path, iid: String(iid), milestoneId }, credentials);
    expect((await set(null, { token: developer.token })).body).toEqual({ data: { mergeRequestSetMilestone: { errors: [], mergeRequest: { milestone: null } } } });
    expect((await set(`gid://gitlab/Milestone/${milestone.id}`)).body).toEqual({ data: { mergeRequestSetMilestone: { errors: [], mergeRequest: { milestone: { title: 'v1.0' } } } } });
    const notes = (await fx.root.MergeRequestNotes.all(projectId, iid)).filter((note) => note.system).map((note) => note.body);
    expect(notes).toEqual(expect.arrayContaining([`removed milestone %${milestone.iid}`, `changed milestone to %${milestone.iid}`]));
    // a milestone the project cannot use names nothing
    const missing = await set('gid://gitlab/Milestone/999999');
    expect(missing.body.errors?.[0]?.message).toBe('No object found for `milestoneId: "gid://gitlab/Milestone/999999"`');
    expect(await labelTitles()).toEqual(['area::web', 'bug']);
  });

  it('refuses strangers, Reporters and signed-out callers, and ids of another class, changing nothing', async () => {
    for (const credentials of [{ token: stranger.token }, { token: reporter.token }, {}] as Credentials[]) {
      const labels = await run(SET_LABELS, { path, iid: String(iid), labelIds: [`gid://gitlab/ProjectLabel/${ux.id}`] }, credentials);
      expect(labels.body.errors?.[0]?.message).toBe(RESOURCE_NOT_AVAILABLE);
      expect(labels.body.data.mergeRequestSetLabels).toBeNull();
      const unset = await run(SET_MILESTONE, { path, iid: String(iid), milestoneId: null }, credentials);
      expect(unset.body.errors?.[0]?.message).toBe(RESOURCE_NOT_AVAILABLE);
    }
    const wrongClass = await run(SET_LABELS, { path, iid: String(iid), labelIds: [`gid://gitlab/Milestone/${milestone.id}`] });
    expect(wrongClass.body.errors?.[0]?.message).toContain(`"gid://gitlab/Milestone/${milestone.id}" does not represent an instance of Label`);
    expect(await labelTitles()).toEqual(['area::web', 'bug']);
    expect((await run(READ, { path, iid: String(iid) })).body.data.project.mergeRequest.milestone.title).toBe('v1.0');
  });
});
