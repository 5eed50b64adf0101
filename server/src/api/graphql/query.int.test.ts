import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type SelectionSetNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERGE_REQUEST_WIDGET_QUERY, mergeRequestGlobalId } from '@tributary/contracts';
import { openMergeRequestWidget, widgetProjectOf } from '@tributary/contracts/merge-widget.fixture';
import { testDatabaseKind } from '../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../test-support/merge-request-fixtures.js';
import { eventually } from '../../test-support/eventually.js';
import type { GitCli, TestUser } from '../../test-support/server.js';
import { graphql, signIn, type Credentials } from './testing.js';

/** Every selected field of the query is present in the answer (null is an answer; undefined is not). */
function missingFields(selection: SelectionSetNode, value: unknown, path = ''): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => missingFields(selection, item, `${path}[${i}]`));
  const object = value as Record<string, unknown>;
  return selection.selections.flatMap((node) => {
    if (node.kind !== 'Field') return [];
    const key = node.alias?.value ?? node.name.value;
    if (!(key in object)) return [`${path}.${key}`];
    return node.selectionSet ? missingFields(node.selectionSet, object[key], `${path}.${key}`) : [];
  });
}

/** The GraphQL widget query (the web contract, word for word) over HTTP, with the REST API's authentication. */
describe(`GraphQL widget query (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number; path_with_namespace: string };
  let git: GitCli;
  let mr: { id: number; iid: number };
  let head: string;
  const sh = (args: string[]) => git.git(args, { cwd: 'work' });
  const commit = async (file: string, message: string) => {
    writeFileSync(join(git.dir, 'work', file), `${message}\n`);
    await sh(['add', '-A']);
    await sh(['commit', '-q', '-m', message]);
    return (await sh(['rev-parse', 'HEAD'])).stdout.trim();
  };
  const push = (...args: string[]) => sh(['push', '-q', git.repoUrl(project.path_with_namespace), ...args]);
  const widget = (iid: number | string, credentials: Credentials = { token: fx.server.root.token }, projectPath = project.path_with_namespace) =>
    graphql(fx.server.url, MERGE_REQUEST_WIDGET_QUERY, { projectPath, iid: String(iid) }, credentials);

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    project = await fx.createProject('gql-widget');
    git = fx.rootGit();
    await git.git(['clone', '-q', git.repoUrl(project.path_with_namespace), 'work']);
    // topic: a commit, a merge of a side branch (a merge commit the widget leaves out), another commit.
    await sh(['checkout', '-q', '-b', 'side']);
    await commit('side.txt', 'Side work');
    await sh(['checkout', '-q', '-b', 'topic', 'main']);
    await commit('a.txt', 'Topic: first\n\nWith a body.');
    await sh(['merge', '-q', '--no-ff', '-m', 'Merge side into topic', 'side']);
    head = await commit('b.txt', 'Topic: second');
    await push('topic');
    const created = await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'Widget topic');
    mr = { id: created.id as number, iid: created.iid as number };
    await eventually(async () => (await fx.root.MergeRequests.show(project.id, mr.iid)).detailed_merge_status === 'mergeable');
  });
  afterAll(() => fx?.close());

  it('answers every field of MERGE_REQUEST_WIDGET_QUERY for an open merge request', async () => {
    const response = await widget(mr.iid);
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    const operation = parse(MERGE_REQUEST_WIDGET_QUERY).definitions[0]!;
    expect(missingFields((operation as { selectionSet: SelectionSetNode }).selectionSet, response.body.data)).toEqual([]);

    const withoutMerges = (await sh(['log', '--no-merges', '--format=%H', 'origin/main..topic'])).stdout.trim().split('\n');
    const data = response.body.data;
    // The shared example of an open, mergeable request (the web app's widget tests serve it), with
    // what this one is; mergeability checks and commits are compared below.
    const { mergeabilityChecks: _checks, commitsWithoutMergeCommits: _commits, shouldRemoveSourceBranch: _remove, ...expected } = openMergeRequestWidget({
      id: mergeRequestGlobalId(mr.id),
      iid: String(mr.iid),
      title: 'Widget topic',
      commitCount: 4,
      defaultMergeCommitMessage: `Merge branch 'topic' into 'main'\n\nWidget topic\n\nSee merge request ${project.path_with_namespace}!${mr.iid}`,
      defaultSquashCommitMessage: 'Widget topic',
      diffHeadSha: head,
      sourceBranch: 'topic',
    });
    const { mergeRequest: _mergeRequest, ...expectedProject } = widgetProjectOf(null, { id: `gid://gitlab/Project/${project.id}`, fullPath: project.path_with_namespace });
    expect(data.project).toMatchObject(expectedProject);
    const got = data.project.mergeRequest;
    // root is an administrator
    expect(got).toMatchObject({ ...expected, userPermissions: { ...expected.userPermissions, adminMergeRequest: true } });
    expect(got.mergeabilityChecks).toEqual(expect.arrayContaining([
      { identifier: 'NOT_OPEN', status: 'SUCCESS' },
      { identifier: 'DRAFT_STATUS', status: 'SUCCESS' },
      { identifier: 'CONFLICT', status: 'SUCCESS' },
    ]));
    expect(got.commitsWithoutMergeCommits.nodes.map((node: { sha: string }) => node.sha)).toEqual(withoutMerges);
    expect(got.commitsWithoutMergeCommits.nodes.find((node: { sha: string }) => node.sha === head)).toEqual({ sha: head, shortId: head.slice(0, 8), title: 'Topic: second', message: 'Topic: second\n' });
  });

  it('follows git: a push to the target makes the request diverge; a deleted source branch is reported', async () => {
    await sh(['checkout', '-q', 'main']);
    await commit('main.txt', 'Main moves on');
    await push('main');
    const diverged = await eventually(async () => {
      const data = (await widget(mr.iid)).body.data;
      return data.project.mergeRequest.divergedCommitsCount === 1 ? data.project.mergeRequest : null;
    });
    expect(diverged.targetBranchExists).toBe(true);

    await sh(['push', '-q', git.repoUrl(project.path_with_namespace), 'side']);
    const side = await fx.root.MergeRequests.create(project.id, 'side', 'main', 'Side');
    await sh(['push', '-q', git.repoUrl(project.path_with_namespace), '--delete', 'side']);
    const missing = await eventually(async () => {
      const got = (await widget(side.iid)).body.data.project.mergeRequest;
      return got.sourceBranchExists === false ? got : null;
    });
    expect(missing.userPermissions.removeSourceBranch).toBe(false);
  });

  it('shows who closed a request and when', async () => {
    await sh(['checkout', '-q', '-b', 'to-close', 'main']);
    await commit('close.txt', 'To close');
    await push('to-close');
    const created = await fx.root.MergeRequests.create(project.id, 'to-close', 'main', 'Draft: closing');
    await fx.root.MergeRequests.edit(project.id, created.iid, { stateEvent: 'close' });
    const got = (await widget(created.iid)).body.data.project.mergeRequest;
    expect(got).toMatchObject({ state: 'closed', draft: true, detailedMergeStatus: 'NOT_OPEN', closedBy: { id: `gid://gitlab/User/${fx.server.root.id}`, username: 'root', webUrl: `${fx.server.url}/root` } });
    expect(Date.parse(got.closedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(got.mergeabilityChecks).toEqual(expect.arrayContaining([{ identifier: 'NOT_OPEN', status: 'FAILED' }, { identifier: 'DRAFT_STATUS', status: 'FAILED' }]));
  });

  it('lists the blocking merge requests the caller may see, and reports BLOCKED_STATUS', async () => {
    await sh(['checkout', '-q', '-b', 'blocked', 'main']);
    await commit('blocked.txt', 'Blocked work');
    await push('blocked');
    await sh(['checkout', '-q', '-b', 'blocker', 'main']);
    await commit('blocker.txt', 'Blocker work');
    await push('blocker');
    const blocked = await fx.root.MergeRequests.create(project.id, 'blocked', 'main', 'Blocked');
    const blocker = await fx.root.MergeRequests.create(project.id, 'blocker', 'main', 'Blocker');
    const block = await fx.call('POST', `/projects/${project.id}/merge_requests/${blocked.iid}/blocks`, { body: { blocking_merge_request_id: blocker.id } });
    expect(block.status).toBe(201);
    const got = await eventually(async () => {
      const data = (await widget(blocked.iid)).body.data.project.mergeRequest;
      return data.detailedMergeStatus === 'BLOCKED_STATUS' ? data : null;
    });
    expect(got.blockingMergeRequests).toEqual({
      nodes: [{ iid: String(blocker.iid), title: 'Blocker', state: 'opened', webUrl: `${fx.server.url}/${project.path_with_namespace}/-/merge_requests/${blocker.iid}`, reference: `!${blocker.iid}` }],
    });
    expect(got.mergeabilityChecks).toContainEqual({ identifier: 'BLOCKED_STATUS', status: 'FAILED' });
    const counts = await graphql(
      fx.server.url,
      'query($path: ID!, $iid: String!) { project(fullPath: $path) { mergeRequest(iid: $iid) { blockingMergeRequests { count hiddenCount totalCount } } } }',
      { path: project.path_with_namespace, iid: String(blocked.iid) },
      { token: fx.server.root.token },
    );
    expect(counts.body.data.project.mergeRequest.blockingMergeRequests).toEqual({ count: 1, hiddenCount: 0, totalCount: 1 });
  });

  it('shows a merged request: who merged it, when, its commit, and the revert and cherry-pick rights', async () => {
    await sh(['checkout', '-q', '-b', 'to-merge', 'main']);
    await sh(['pull', '-q', git.repoUrl(project.path_with_namespace), 'main']);
    const sha = await commit('merge.txt', 'To merge');
    await push('to-merge');
    const created = await fx.root.MergeRequests.create(project.id, 'to-merge', 'main', 'To merge');
    await eventually(async () => (await fx.root.MergeRequests.show(project.id, created.iid)).detailed_merge_status === 'mergeable');
    const merged = await fx.call('PUT', `/projects/${project.id}/merge_requests/${created.iid}/merge`, { body: { sha } });
    expect(merged.status).toBe(200);
    const got = (await widget(created.iid)).body.data.project.mergeRequest;
    const root = { id: `gid://gitlab/User/${fx.server.root.id}`, username: 'root', name: expect.any(String), webUrl: `${fx.server.url}/root`, avatarUrl: null };
    expect(got).toMatchObject({
      state: 'merged',
      detailedMergeStatus: 'NOT_OPEN',
      mergedBy: root,
      mergeUser: root,
      mergeCommitSha: await fx.tip(project.id, 'main'),
      mergeOngoing: false,
      userPermissions: { revertOnCurrentMergeRequest: true, cherryPickOnCurrentMergeRequest: true },
    });
    expect(Date.parse(got.mergedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("renders the default commit messages from the project's templates", async () => {
    const updated = await fx.call('PUT', `/projects/${project.id}`, { body: { merge_commit_template: '%{title} (%{reference})', squash_commit_template: 'Squashed: %{title}' } });
    expect(updated.status).toBe(200);
    const got = (await widget(mr.iid)).body.data.project.mergeRequest;
    expect(got.defaultMergeCommitMessage).toBe(`Widget topic (${project.path_with_namespace}!${mr.iid})`);
    expect(got.defaultSquashCommitMessage).toBe('Squashed: Widget topic');
    await fx.call('PUT', `/projects/${project.id}`, { body: { merge_commit_template: null, squash_commit_template: null } });
  });

  describe('what the caller may not see is null, never an error', () => {
    let stranger: TestUser;
    let guest: TestUser;
    beforeAll(async () => {
      stranger = await fx.server.createUser();
      guest = await fx.member(project.id, 10);
    });

    it('a private project is null for a non-member, exactly like a project that does not exist', async () => {
      const hidden = await widget(mr.iid, { token: stranger.token });
      const absent = await widget(mr.iid, { token: stranger.token }, 'nobody/nothing');
      expect(hidden).toEqual({ status: 200, body: { data: { project: null } } });
      expect(absent).toEqual(hidden);
      expect((await widget(mr.iid, {})).body).toEqual({ data: { project: null } });
      const byId = await graphql(fx.server.url, 'query($id: MergeRequestID!) { mergeRequest(id: $id) { title } }', { id: mergeRequestGlobalId(mr.id) }, { token: stranger.token });
      expect(byId.body).toEqual({ data: { mergeRequest: null } });
    });

    it('a merge request is null for a Guest of a private project (no code), and for an unknown iid', async () => {
      const asGuest = await widget(mr.iid, { token: guest.token });
      expect(asGuest.body.errors).toBeUndefined();
      expect(asGuest.body.data.project).toMatchObject({ fullPath: project.path_with_namespace, mergeRequest: null });
      for (const iid of ['999', '0', 'x', '-1']) expect((await widget(iid)).body.data.project.mergeRequest).toBeNull();
    });

    it('a Reporter reads the request but may not merge, update or push', async () => {
      const reporter = await fx.member(project.id, 20);
      const got = (await widget(mr.iid, { token: reporter.token })).body.data.project.mergeRequest;
      expect(got.title).toBe('Widget topic');
      expect(got.userPermissions).toEqual({
        canApprove: false,
        canMerge: false,
        removeSourceBranch: false,
        updateMergeRequest: false,
        adminMergeRequest: false,
        pushToSourceBranch: false,
        revertOnCurrentMergeRequest: false,
        cherryPickOnCurrentMergeRequest: false,
      });
    });

    it('anonymous callers read public projects with no rights, and currentUser is null', async () => {
      const open = await fx.createProject('gql-public', { visibility: 'public' });
      const response = await graphql(fx.server.url, '{ currentUser { username } project(fullPath: "' + open.path_with_namespace + '") { fullPath archived } }');
      expect(response.body).toEqual({ data: { currentUser: null, project: { fullPath: open.path_with_namespace, archived: false } } });
    });
  });

  describe('authentication: the REST API rules', () => {
    it('takes a token with read_api (GET or POST), refuses read_user only (403) and a bad token (401)', async () => {
      const user = await fx.member(project.id, 30);
      const readApi = await fx.server.createToken(user.id, { scopes: ['read_api'] });
      const readUser = await fx.server.createToken(user.id, { scopes: ['read_user'] });
      const query = '{ currentUser { username } }';
      expect((await graphql(fx.server.url, query, {}, { token: readApi })).body).toEqual({ data: { currentUser: { username: user.username } } });
      expect((await graphql(fx.server.url, query, {}, { token: readApi }, 'GET')).body).toEqual({ data: { currentUser: { username: user.username } } });
      const scoped = await graphql(fx.server.url, query, {}, { token: readUser });
      expect(scoped.status).toBe(403);
      expect(scoped.body.data).toBeUndefined();
      const bad = await graphql(fx.server.url, query, {}, { token: 'glpat-not-a-token' });
      expect(bad).toEqual({ status: 401, body: { errors: [{ message: '401 Unauthorized' }] } });
    });

    it('takes the web session cookie: POST needs the CSRF header and our Origin, GET does not', async () => {
      const session = await signIn(fx.server.url, 'root', fx.server.root.password);
      const query = '{ currentUser { username } }';
      expect((await graphql(fx.server.url, query, {}, { session })).body).toEqual({ data: { currentUser: { username: 'root' } } });
      const noCsrf = await graphql(fx.server.url, query, {}, { session, csrf: false });
      expect(noCsrf).toEqual({ status: 403, body: { errors: [{ message: '403 Forbidden - CSRF token is invalid or missing' }] } });
      const foreign = await graphql(fx.server.url, query, {}, { session, origin: 'http://evil.example' });
      expect(foreign.status).toBe(403);
      expect((await graphql(fx.server.url, query, {}, { session, csrf: false }, 'GET')).body).toEqual({ data: { currentUser: { username: 'root' } } });
      const widgetData = await widget(mr.iid, { session });
      expect(widgetData.body.data.project.mergeRequest.iid).toBe(String(mr.iid));
    });
  });
});
