import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** Who may read, open and edit merge requests: 404 for what the caller may not see, 403 for what they may not do. */
describe(`merge request permissions (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let secret: { id: number; path_with_namespace: string };
  let open: { id: number; path_with_namespace: string };
  let stranger: TestUser;
  let guest: TestUser;
  let reporter: TestUser;
  let developer: TestUser;
  const mr = (projectId: number, suffix = '') => `/projects/${projectId}/merge_requests/1${suffix}`;

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    secret = await fx.createProject('secret');
    open = await fx.createProject('open', { visibility: 'public' });
    for (const project of [secret, open]) {
      await fx.root.Commits.create(project.id, 'topic', 'Topic', [{ action: 'create', filePath: 'topic.txt', content: 'topic\n' }], { startBranch: 'main' });
      await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'Secret plans');
    }
    stranger = await fx.server.createUser();
    guest = await fx.member(secret.id, 10);
    reporter = await fx.member(secret.id, 20);
    developer = await fx.member(secret.id, 30);
  });
  afterAll(() => fx?.close());

  it('answers 404 to strangers and anonymous callers for every endpoint of a private project, without leaking titles', async () => {
    for (const token of [stranger.token, null]) {
      for (const path of [`/projects/${secret.id}/merge_requests`, mr(secret.id), mr(secret.id, '/diffs'), mr(secret.id, '/changes'), mr(secret.id, '/commits'), mr(secret.id, '/versions'), mr(secret.id, '/raw_diffs')]) {
        const response = await fx.call('GET', path, { token });
        expect(response.status, `${path} ${token ? 'stranger' : 'anonymous'}`).toBe(404);
        expect(response.raw.toString()).not.toContain('Secret');
      }
    }
    expect((await fx.call('PUT', mr(secret.id), { token: stranger.token, body: { title: 'x' } })).status).toBe(404);
    expect((await fx.call('POST', `/projects/${secret.id}/merge_requests`, { token: stranger.token, body: { source_branch: 'topic', target_branch: 'main', title: 'x' } })).status).toBe(404);
    expect((await fx.call('PUT', mr(secret.id), { token: null, body: { title: 'x' } })).status).toBe(401);
  });

  it('keeps Guests of a private project out of its merge requests (they show code)', async () => {
    expect((await fx.call('GET', `/projects/${secret.id}/merge_requests`, { token: guest.token })).status).toBe(403);
    expect(await fx.call('GET', mr(secret.id), { token: guest.token })).toMatchObject({ status: 404, body: { message: '404 Merge Request Not Found' } });
    expect((await fx.call('POST', `/projects/${secret.id}/merge_requests`, { token: guest.token, body: { source_branch: 'topic', target_branch: 'main', title: 'x' } })).status).toBe(403);
  });

  it('lets Reporters read but not open merge requests from the project or edit others’', async () => {
    const api = gitbeakerClient(fx.server.url, reporter.token);
    expect((await api.MergeRequests.show(secret.id, 1)).title).toBe('Secret plans');
    expect((await api.MergeRequests.allDiffs(secret.id, 1)).map((diff) => diff.new_path)).toEqual(['topic.txt']);
    expect((await fx.call('POST', `/projects/${secret.id}/merge_requests`, { token: reporter.token, body: { source_branch: 'topic', target_branch: 'main', title: 'x' } })).status).toBe(403);
    expect((await fx.call('PUT', mr(secret.id), { token: reporter.token, body: { title: 'renamed' } })).status).toBe(403);
    expect((await fx.call('PUT', mr(secret.id), { token: reporter.token, body: { state_event: 'close' } })).status).toBe(403);
  });

  it('lets a Reporter open one from their own fork and edit it as its author', async () => {
    const api = gitbeakerClient(fx.server.url, reporter.token);
    const fork = await api.Projects.fork(secret.id);
    expect(fork.visibility).toBe('private');
    await api.Commits.create(fork.id, 'mine', 'Mine', [{ action: 'create', filePath: 'mine.txt', content: 'mine\n' }], { startBranch: 'main' });
    const created = await api.MergeRequests.create(fork.id, 'mine', 'main', 'From a reporter', { targetProjectId: secret.id });
    const edited = await api.MergeRequests.edit(secret.id, created.iid, { title: 'From a reporter, edited', stateEvent: 'close' });
    expect(edited).toMatchObject({ title: 'From a reporter, edited', state: 'closed' });
  });

  it('lets Developers open merge requests and edit anyone’s', async () => {
    const api = gitbeakerClient(fx.server.url, developer.token);
    await api.Commits.create(secret.id, 'dev-topic', 'Dev', [{ action: 'create', filePath: 'dev.txt', content: 'dev\n' }], { startBranch: 'main' });
    expect((await api.MergeRequests.create(secret.id, 'dev-topic', 'main', 'Dev work')).author.id).toBe(developer.id);
    expect((await api.MergeRequests.edit(secret.id, 1, { description: 'edited by a developer' })).description).toBe('edited by a developer');
  });

  it('lets anyone read a public project’s merge requests, and nobody anonymous write', async () => {
    expect(await fx.call('GET', mr(open.id), { token: null })).toMatchObject({ status: 200, body: { title: 'Secret plans', user: { can_merge: false } } });
    expect((await fx.call('GET', `/projects/${open.id}/merge_requests`, { token: null })).body).toHaveLength(1);
    expect((await fx.call('POST', `/projects/${open.id}/merge_requests`, { token: null, body: { source_branch: 'topic', target_branch: 'main', title: 'x' } })).status).toBe(401);
    expect((await fx.call('PUT', mr(open.id), { token: stranger.token, body: { title: 'x' } })).status).toBe(403);
  });

  it('needs the api scope to write (read_api reads)', async () => {
    const readOnly = await fx.server.createToken(developer.id, { scopes: ['read_api'] });
    expect((await fx.call('GET', mr(secret.id), { token: readOnly })).status).toBe(200);
    expect(await fx.call('PUT', mr(secret.id), { token: readOnly, body: { title: 'x' } })).toMatchObject({ status: 403, body: { error: 'insufficient_scope' } });
  });
});
