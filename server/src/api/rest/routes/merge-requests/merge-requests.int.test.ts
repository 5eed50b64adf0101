import type { AllMergeRequestsOptions } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** Opening, reading, listing and editing merge requests through gitbeaker and plain HTTP. */
describe(`merge requests API (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let main: string;

  /** A branch off main with one commit changing `file`. */
  const branch = async (name: string, file = `${name}.txt`, from = 'main') => {
    const parent = await fx.tip(project.id, from);
    await fx.setBranch(project.id, name, await fx.writeCommit(project.id, { parent, files: [{ path: file, content: `${name}\n` }], message: `Add ${file}` }));
  };

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    project = await fx.createProject('mr-api');
    developer = await fx.member(project.id, 30);
    main = await fx.tip(project.id, 'main');
    await branch('feature');
  });
  afterAll(() => fx?.close());

  it('creates a merge request (201) with GitLab fields, its first version and the head ref', async () => {
    const mr = await gitbeakerClient(fx.server.url, developer.token).MergeRequests.create(project.id, 'feature', 'main', 'Add feature', {
      description: '- [x] done\n- [ ] todo',
      squash: true,
      removeSourceBranch: true,
      assigneeIds: [developer.id],
      reviewerIds: [fx.server.root.id],
    });
    const head = await fx.tip(project.id, 'feature');
    expect(mr).toMatchObject({
      iid: 1,
      project_id: project.id,
      title: 'Add feature',
      state: 'opened',
      source_branch: 'feature',
      target_branch: 'main',
      source_project_id: project.id,
      target_project_id: project.id,
      author: { id: developer.id, username: developer.username },
      assignees: [{ id: developer.id }],
      assignee: { id: developer.id },
      reviewers: [{ id: fx.server.root.id }],
      draft: false,
      work_in_progress: false,
      merge_status: 'can_be_merged',
      detailed_merge_status: 'mergeable',
      has_conflicts: false,
      sha: head,
      diff_refs: { base_sha: main, start_sha: main, head_sha: head },
      changes_count: '1',
      squash: true,
      force_remove_source_branch: true,
      should_remove_source_branch: null,
      labels: [],
      milestone: null,
      user_notes_count: 0,
      reference: '!1',
      references: { short: '!1', relative: '!1', full: `${project.path_with_namespace}!1` },
      web_url: `${fx.server.url}/${project.path_with_namespace}/-/merge_requests/1`,
      task_completion_status: { count: 2, completed_count: 1 },
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      first_contribution: false,
      user: { can_merge: false }, // main is protected: Maintainers merge
      merged_by: null,
      closed_by: null,
      merged_at: null,
      closed_at: null,
    });
    expect(mr.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await fx.rawGit(project.id, ['rev-parse', 'refs/merge-requests/1/head'])).toString().trim()).toBe(head);
    expect((await fx.root.MergeRequests.show(project.id, 1)).user).toEqual({ can_merge: true });
  });

  it('answers 409 with the conflicting reference for a second open merge request of the same branches', async () => {
    const response = await fx.call('POST', `/projects/${project.id}/merge_requests`, { body: { source_branch: 'feature', target_branch: 'main', title: 'Again' } });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: ['Another open merge request already exists for this source branch: !1'] });
  });

  it('refuses the same branch as source and target and missing branches (422, GitLab’s base errors)', async () => {
    const create = (body: Record<string, unknown>) => fx.call('POST', `/projects/${project.id}/merge_requests`, { body: { title: 'x', ...body } });
    expect(await create({ source_branch: 'main', target_branch: 'main' })).toMatchObject({ status: 422, body: { message: ["You can't use same project/branch for source and target"] } });
    expect(await create({ source_branch: 'nope', target_branch: 'main' })).toMatchObject({ status: 422, body: { message: ['Source branch "nope" does not exist'] } });
    expect(await create({ source_branch: 'feature', target_branch: 'nope' })).toMatchObject({ status: 422, body: { message: ['Target branch "nope" does not exist'] } });
    expect(await create({ source_branch: '-x', target_branch: 'main' })).toMatchObject({ status: 400, body: { message: { source_branch: ['is invalid'] } } });
    expect(await create({ target_branch: 'main' })).toMatchObject({ status: 400, body: { error: 'source_branch is missing' } });
    expect(await create({ source_branch: 'feature', target_branch: 'main', title: 'x'.repeat(256) })).toMatchObject({ status: 400, body: { message: { title: ['is too long (maximum is 255 characters)'] } } });
  });

  it('opens a merge request with no commits between the branches: an empty version, commits_status', async () => {
    await fx.setBranch(project.id, 'same-as-main', main);
    const mr = await fx.root.MergeRequests.create(project.id, 'same-as-main', 'main', 'Nothing yet');
    expect(mr).toMatchObject({ changes_count: '0', detailed_merge_status: 'commits_status', diff_refs: { base_sha: main, head_sha: main, start_sha: main } });
    expect(await fx.root.MergeRequests.allCommits(project.id, mr.iid)).toEqual([]);
    expect(await fx.root.MergeRequests.allDiffs(project.id, mr.iid)).toEqual([]);
    const versions = await fx.root.MergeRequests.allDiffVersions(project.id, mr.iid);
    expect(versions).toMatchObject([{ state: 'empty', real_size: '0' }]);
    await fx.root.MergeRequests.edit(project.id, mr.iid, { stateEvent: 'close' });
  });

  it('refuses to open merge requests in an empty repository (no branches)', async () => {
    const empty = await fx.root.Projects.create({ name: 'mr-empty' });
    const response = await fx.call('POST', `/projects/${empty.id}/merge_requests`, { body: { source_branch: 'feature', target_branch: 'main', title: 'x' } });
    expect(response).toMatchObject({ status: 422, body: { message: ['Source branch "feature" does not exist'] } });
    expect(await fx.root.MergeRequests.all({ projectId: empty.id })).toEqual([]);
  });

  it('hands out distinct iids to concurrent creations', async () => {
    const names = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
    for (const name of names) await branch(name);
    const created = await Promise.all(names.map((name) => fx.call('POST', `/projects/${project.id}/merge_requests`, { body: { source_branch: name, target_branch: 'main', title: name } })));
    expect(created.map((response) => response.status)).toEqual(names.map(() => 201));
    const iids = created.map((response) => response.body.iid as number);
    expect(new Set(iids).size).toBe(names.length);
  });

  it('keeps one open merge request per branch pair even when two race', async () => {
    await branch('race');
    const [a, b] = await Promise.all([0, 1].map(() => fx.call('POST', `/projects/${project.id}/merge_requests`, { body: { source_branch: 'race', target_branch: 'main', title: 'race' } })));
    expect([a!.status, b!.status].sort()).toEqual([201, 409]);
  });

  it('derives draft from the title prefix and the draft flag, and records draft/ready', async () => {
    await branch('drafty');
    const mr = await fx.root.MergeRequests.create(project.id, 'drafty', 'main', '[Draft] Work');
    expect(mr).toMatchObject({ draft: true, work_in_progress: true, detailed_merge_status: 'draft_status' });
    const ready = await fx.call('PUT', `/projects/${project.id}/merge_requests/${mr.iid}`, { body: { draft: false } });
    expect(ready.body).toMatchObject({ title: 'Work', draft: false });
    const again = await fx.root.MergeRequests.edit(project.id, mr.iid, { title: 'Draft: Work again' });
    expect(again).toMatchObject({ draft: true });
    const events = await fx.server.app.db.query<{ action: string }>('SELECT action FROM merge_request_events WHERE merge_request_id = $1 ORDER BY id', [mr.id]);
    // 'Work' → 'Work again' also changed the title itself (a `title` event, for its system note)
    expect(events.rows.map((row) => row.action)).toEqual(['opened', 'ready', 'title', 'draft']);
  });

  it('edits title, description, assignees, reviewers, squash and collaboration', async () => {
    const outsider = await fx.server.createUser(); // cannot read the private project: dropped, as GitLab does
    const edited = await fx.root.MergeRequests.edit(project.id, 1, {
      title: 'Add the feature',
      description: 'Why and how',
      assigneeIds: [fx.server.root.id, outsider.id],
      reviewerIds: [],
      squash: false,
      allowCollaboration: true,
      removeSourceBranch: false,
    });
    expect(edited).toMatchObject({
      title: 'Add the feature',
      description: 'Why and how',
      assignees: [{ id: fx.server.root.id }],
      reviewers: [],
      squash: false,
      allow_collaboration: true,
      force_remove_source_branch: false,
    });
    const none = await fx.call('PUT', `/projects/${project.id}/merge_requests/1`, { body: {} });
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/at least one parameter must be provided$/);
  });

  it('closes and reopens with closed_by and closed_at; a reopen that would duplicate answers 409', async () => {
    const closed = await fx.root.MergeRequests.edit(project.id, 1, { stateEvent: 'close' });
    expect(closed).toMatchObject({ state: 'closed', closed_by: { id: fx.server.root.id }, detailed_merge_status: 'not_open' });
    expect(closed.closed_at).not.toBeNull();
    const duplicate = await fx.root.MergeRequests.create(project.id, 'feature', 'main', 'Replacement');
    const refused = await fx.call('PUT', `/projects/${project.id}/merge_requests/1`, { body: { state_event: 'reopen' } });
    expect(refused).toMatchObject({ status: 409, body: { message: [`Another open merge request already exists for this source branch: !${duplicate.iid}`] } });
    await fx.root.MergeRequests.edit(project.id, duplicate.iid, { stateEvent: 'close' });
    const reopened = await fx.root.MergeRequests.edit(project.id, 1, { stateEvent: 'reopen' });
    expect(reopened).toMatchObject({ state: 'opened', closed_by: null, closed_at: null });
  });

  it('retargets: a new version against the new branch and a retargeted event', async () => {
    await fx.setBranch(project.id, 'develop', await fx.writeCommit(project.id, { parent: main, files: [{ path: 'develop.txt', content: 'd\n' }] }));
    const before = await fx.root.MergeRequests.allDiffVersions(project.id, 1);
    const moved = await fx.root.MergeRequests.edit(project.id, 1, { targetBranch: 'develop' });
    expect(moved).toMatchObject({ target_branch: 'develop', diff_refs: { start_sha: await fx.tip(project.id, 'develop'), base_sha: main } });
    expect(await fx.root.MergeRequests.allDiffVersions(project.id, 1)).toHaveLength(before.length + 1);
    const events = await fx.server.app.db.query<{ action: string; from_value: string; to_value: string }>(
      `SELECT action, from_value, to_value FROM merge_request_events WHERE merge_request_id = $1 AND action = 'retargeted'`,
      [moved.id],
    );
    expect(events.rows).toEqual([{ action: 'retargeted', from_value: 'main', to_value: 'develop' }]);
    expect(await fx.call('PUT', `/projects/${project.id}/merge_requests/1`, { body: { target_branch: 'nope' } })).toMatchObject({ status: 422, body: { message: ['Target branch "nope" does not exist'] } });
    expect(await fx.call('PUT', `/projects/${project.id}/merge_requests/1`, { body: { target_branch: 'feature' } })).toMatchObject({ status: 422 });
  });

  it('lists a project’s merge requests with filters, ordering and pagination', async () => {
    const all = await fx.root.MergeRequests.all({ projectId: project.id });
    expect(all.length).toBeGreaterThanOrEqual(10);
    const created = all.map((mr) => mr.created_at as string);
    expect(created).toEqual([...created].sort().reverse()); // newest first
    const titles = (list: Array<{ title: string }>) => list.map((mr) => mr.title);
    // GitLab orders merge requests by title too; gitbeaker's type for orderBy only knows created_at and updated_at
    const orderByTitle = { orderBy: 'title' } as unknown as Pick<AllMergeRequestsOptions, 'orderBy'>;
    expect(titles(await fx.root.MergeRequests.all({ projectId: project.id, state: 'closed' }))).toEqual(['Replacement', 'Nothing yet']);
    expect(titles(await fx.root.MergeRequests.all({ projectId: project.id, search: 'FEATURE' }))).toEqual(['Add the feature']);
    expect(titles(await fx.root.MergeRequests.all({ projectId: project.id, sourceBranch: 'c3' }))).toEqual(['c3']);
    expect(titles(await fx.root.MergeRequests.all({ projectId: project.id, targetBranch: 'develop' }))).toEqual(['Add the feature']);
    expect(titles(await fx.root.MergeRequests.all({ projectId: project.id, wip: 'yes' }))).toEqual(['Draft: Work again']);
    expect(titles(await fx.root.MergeRequests.all({ projectId: project.id, authorId: developer.id }))).toEqual(['Add the feature']);
    expect(titles(await fx.root.MergeRequests.all({ projectId: project.id, assigneeId: fx.server.root.id }))).toEqual(['Add the feature']);
    expect(titles(await fx.root.MergeRequests.all({ projectId: project.id, iids: [1, 2] }))).toEqual(['Nothing yet', 'Add the feature']);
    expect(titles(await fx.root.MergeRequests.all({ projectId: project.id, ...orderByTitle, sort: 'asc', state: 'closed' }))).toEqual(['Nothing yet', 'Replacement']);
    const page = await fx.call('GET', `/projects/${project.id}/merge_requests?per_page=3&page=2`);
    expect(page.body).toHaveLength(3);
    expect(page.headers.get('x-total')).toBe(String(all.length));
    expect(page.headers.get('x-page')).toBe('2');
    expect(page.headers.get('link')).toContain('rel="next"');
    const simple = await fx.call('GET', `/projects/${project.id}/merge_requests?view=simple&iids[]=1`);
    expect(Object.keys(simple.body[0]).sort()).toEqual(['created_at', 'description', 'id', 'iid', 'project_id', 'state', 'title', 'updated_at', 'web_url']);
    expect(await fx.call('GET', `/projects/${project.id}/merge_requests?order_by=priority`)).toMatchObject({ status: 400 });
  });

  it('lists across the instance: created_by_me for signed-in callers, scope=all for anyone, 401 otherwise', async () => {
    const mine = await gitbeakerClient(fx.server.url, developer.token).MergeRequests.all();
    expect(mine.map((mr) => mr.title)).toEqual(['Add the feature']);
    const assigned = await fx.call('GET', '/merge_requests?scope=assigned_to_me', { token: developer.token });
    expect(assigned.body).toEqual([]);
    const everything = await fx.call('GET', '/merge_requests?scope=all&state=opened', { token: developer.token });
    expect(everything.body.length).toBeGreaterThan(1);
    expect((await fx.call('GET', '/merge_requests', { token: null })).status).toBe(401);
    expect(await fx.call('GET', '/merge_requests?scope=all', { token: null })).toMatchObject({ status: 200, body: [] });
  });

  it('answers 404 for an unknown or malformed iid', async () => {
    expect(await fx.call('GET', `/projects/${project.id}/merge_requests/999`)).toMatchObject({ status: 404, body: { message: '404 Merge Request Not Found' } });
    expect((await fx.call('GET', `/projects/${project.id}/merge_requests/abc`)).status).toBe(404);
  });
});
