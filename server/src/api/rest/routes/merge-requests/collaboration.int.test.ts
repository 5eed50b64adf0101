import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { eventually } from '../../../../test-support/eventually.js';
import { gitbeakerClient, gitCli, type GitCli, type TestUser } from '../../../../test-support/server.js';
import { graphql } from '../../../graphql/testing.js';

const REFUSED = 'You are not allowed to push code to this project.';

/**
 * "Allow commits from members who can merge to the target branch": a target Maintainer
 * pushes to a fork's source branch with the git CLI, writes files, rebases and sees it in
 * the widget, only while the merge request is open and allows it, and only that branch.
 */
describe(`merge requests allowing collaboration (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let upstream: { id: number; path_with_namespace: string };
  let fork: { id: number; path_with_namespace: string };
  let alice: TestUser;
  let maintainer: TestUser;
  let developer: TestUser;
  let cli: GitCli;
  let devCli: GitCli;
  let iid: number;
  let counter = 0;

  const aliceApi = () => gitbeakerClient(fx.server.url, alice.token);
  const mrOf = () => fx.root.MergeRequests.show(upstream.id, iid);
  /** A new commit on the maintainer's clone of the fork's `feature`, pushed (or refused). */
  async function pushFeature(client: GitCli, options: { force?: boolean; ref?: string } = {}) {
    await client.git(['fetch', 'origin'], { cwd: 'fork' });
    await client.git(['checkout', '-B', 'feature', 'origin/feature'], { cwd: 'fork' });
    if (options.force) await client.git(['reset', '--hard', 'HEAD~1'], { cwd: 'fork' });
    await client.git(['commit', '--allow-empty', '-m', `collaboration ${++counter}`], { cwd: 'fork' });
    const head = (await client.git(['rev-parse', 'HEAD'], { cwd: 'fork' })).stdout.trim();
    const result = await client.git(['push', ...(options.force ? ['--force'] : []), 'origin', `HEAD:${options.ref ?? 'refs/heads/feature'}`], { cwd: 'fork', allowFailure: true });
    return { head, ...result };
  }
  const writeFile = (token: string, branch: string) =>
    fx.call('POST', `/projects/${fork.id}/repository/files/${encodeURIComponent(`notes-${++counter}.txt`)}`, {
      token,
      body: { branch, content: 'from upstream\n', commit_message: 'Upstream fix' },
    });
  const pushToSourceBranch = async (token: string) =>
    (
      await graphql(
        fx.server.url,
        'query($path: ID!, $iid: String!) { project(fullPath: $path) { mergeRequest(iid: $iid) { userPermissions { pushToSourceBranch } } } }',
        { path: upstream.path_with_namespace, iid: String(iid) },
        { token },
      )
    ).body.data?.project?.mergeRequest?.userPermissions?.pushToSourceBranch;

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    upstream = await fx.createProject('collab-upstream', { visibility: 'public' });
    maintainer = await fx.member(upstream.id, 40);
    developer = await fx.member(upstream.id, 30); // main merges by Maintainers only (default protection)
    alice = await fx.server.createUser({ username: 'collab-alice' });
    const created = await aliceApi().Projects.fork(upstream.id);
    fork = { id: created.id as number, path_with_namespace: created.path_with_namespace as string };
    await aliceApi().Commits.create(fork.id, 'feature', 'Fork work', [{ action: 'create', filePath: 'fork.txt', content: 'fork\n' }], { startBranch: 'main' });
    iid = (await aliceApi().MergeRequests.create(fork.id, 'feature', 'main', 'From the fork', { targetProjectId: upstream.id })).iid;
    cli = gitCli({ url: fx.server.url, username: maintainer.username, password: maintainer.token });
    devCli = gitCli({ url: fx.server.url, username: developer.username, password: developer.token });
    for (const client of [cli, devCli]) await client.git(['clone', client.repoUrl(fork.path_with_namespace), 'fork']);
  });
  afterAll(async () => {
    await cli?.close();
    await devCli?.close();
    await fx?.close();
  });

  it('refuses the target Maintainer while collaboration is off, and ignores their attempt to turn it on', async () => {
    const refused = await pushFeature(cli);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(REFUSED);
    expect((await writeFile(maintainer.token, 'feature')).status).toBe(403);
    expect(await pushToSourceBranch(maintainer.token)).toBe(false);
    // GitLab's filter_params: only someone who can push to the fork may allow collaboration
    const edited = await gitbeakerClient(fx.server.url, maintainer.token).MergeRequests.edit(upstream.id, iid, { allowCollaboration: true });
    expect(edited.allow_collaboration).toBe(false);
  });

  it('lets the target Maintainer push to the source branch once the author allows collaboration', async () => {
    const edited = await aliceApi().MergeRequests.edit(upstream.id, iid, { allowCollaboration: true });
    expect(edited).toMatchObject({ allow_collaboration: true, allow_maintainer_to_push: true });
    const pushed = await pushFeature(cli);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await fx.tip(fork.id, 'feature')).toBe(pushed.head);
    // the merge request follows the push (a new version)
    await eventually(async () => (await mrOf()).sha === pushed.head);
    expect(await pushToSourceBranch(maintainer.token)).toBe(true);
  });

  it('refuses a force push, another branch, a new branch, a tag and deleting the branch', async () => {
    const before = await fx.tip(fork.id, 'feature');
    const forced = await pushFeature(cli, { force: true });
    expect(forced.code).not.toBe(0);
    expect(forced.stderr).toContain(REFUSED);
    for (const ref of ['refs/heads/main', 'refs/heads/brand-new', 'refs/tags/v1']) {
      const other = await pushFeature(cli, { ref });
      expect(other.code, ref).not.toBe(0);
      expect(other.stderr).toContain(REFUSED);
    }
    const deleted = await cli.git(['push', 'origin', ':refs/heads/feature'], { cwd: 'fork', allowFailure: true });
    expect(deleted.code).not.toBe(0);
    expect(await fx.tip(fork.id, 'feature')).toBe(before);
    expect(await fx.tip(fork.id, 'main')).toBe(await fx.tip(upstream.id, 'main'));
  });

  it('refuses a target Developer who may not merge into the protected target branch', async () => {
    const refused = await pushFeature(devCli);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(REFUSED);
    expect((await writeFile(developer.token, 'feature')).status).toBe(403);
    expect(await pushToSourceBranch(developer.token)).toBe(false);
  });

  it('lets the target Maintainer write files on the source branch through REST, not on other branches', async () => {
    const written = await writeFile(maintainer.token, 'feature');
    expect(written.status).toBe(201);
    const commit = await fx.root.Commits.show(fork.id, 'feature');
    expect(commit.committer_name).toBe(maintainer.username);
    expect((await writeFile(maintainer.token, 'main')).status).toBe(403);
    const created = await fx.call('POST', `/projects/${fork.id}/repository/commits`, {
      token: maintainer.token,
      body: { branch: 'side', start_branch: 'feature', commit_message: 'Side', actions: [{ action: 'create', file_path: 'side.txt', content: 'x' }] },
    });
    expect(created.status).toBe(403);
  });

  it('lets the target Maintainer rebase the source branch onto the moved target', async () => {
    await fx.root.Commits.create(upstream.id, 'main', 'Upstream moves on', [{ action: 'create', filePath: `up-${++counter}.txt`, content: 'up\n' }]);
    const main = await fx.tip(upstream.id, 'main');
    const scheduled = await gitbeakerClient(fx.server.url, maintainer.token).MergeRequests.rebase(upstream.id, iid);
    expect(scheduled).toEqual({ rebase_in_progress: true });
    const after = await eventually(async () => ((await mrOf()).rebase_in_progress === false ? mrOf() : null));
    expect(after.merge_error).toBeNull();
    const rebased = await fx.tip(fork.id, 'feature');
    await fx.bareGit(fork.id, ['fetch', '--quiet', fx.repoPath(upstream.id), `+refs/heads/main:refs/upstream-main`]);
    expect(await fx.bareGit(fork.id, ['merge-base', '--is-ancestor', main, rebased]).then(() => true)).toBe(true);
    // a Developer of the target still may not
    expect((await fx.call('PUT', `/projects/${upstream.id}/merge_requests/${iid}/rebase`, { token: developer.token })).status).toBe(403);
  });

  it('lets the target Maintainer apply a suggestion on the source branch; a Developer of the target may not', async () => {
    const tip = await fx.tip(fork.id, 'feature');
    const mr = await eventually(async () => {
      const shown = await mrOf();
      return shown.diff_refs?.head_sha === tip ? shown : null;
    });
    const refs = mr.diff_refs as { base_sha: string; head_sha: string; start_sha: string };
    const position = { base_sha: refs.base_sha, head_sha: refs.head_sha, start_sha: refs.start_sha, position_type: 'text', old_path: 'fork.txt', new_path: 'fork.txt', new_line: 1 };
    const thread = await fx.call<{ notes: Array<{ suggestions: Array<{ id: number }> }> }>('POST', `/projects/${upstream.id}/merge_requests/${iid}/discussions`, {
      token: maintainer.token,
      body: { body: '```suggestion\nfork, fixed upstream\n```', position },
    });
    expect(thread.status).toBe(201);
    const suggestion = thread.body.notes[0]!.suggestions[0]!.id;
    expect((await fx.call('PUT', `/suggestions/${suggestion}/apply`, { token: developer.token })).status).toBe(403);
    const applied = await fx.call('PUT', `/suggestions/${suggestion}/apply`, { token: maintainer.token });
    expect(applied.status).toBe(200);
    expect(String(await fx.root.RepositoryFiles.showRaw(fork.id, 'fork.txt', 'feature'))).toBe('fork, fixed upstream\n');
  });

  it('takes the right away when the merge request is closed (and gives it back on reopen)', async () => {
    await aliceApi().MergeRequests.edit(upstream.id, iid, { stateEvent: 'close' });
    const refused = await pushFeature(cli);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(REFUSED);
    expect((await writeFile(maintainer.token, 'feature')).status).toBe(403);
    expect((await fx.call('PUT', `/projects/${upstream.id}/merge_requests/${iid}/rebase`, { token: maintainer.token })).status).toBe(403);
    await aliceApi().MergeRequests.edit(upstream.id, iid, { stateEvent: 'reopen' });
    expect((await pushFeature(cli)).code).toBe(0);
  });

  it('takes the right away when the author turns collaboration off', async () => {
    await aliceApi().MergeRequests.edit(upstream.id, iid, { allowCollaboration: false });
    const refused = await pushFeature(cli);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(REFUSED);
    expect(await pushToSourceBranch(maintainer.token)).toBe(false);
  });

  it('takes the right away once the merge request is merged', async () => {
    await aliceApi().MergeRequests.edit(upstream.id, iid, { allowCollaboration: true });
    expect((await pushFeature(cli)).code).toBe(0);
    const head = await fx.tip(fork.id, 'feature');
    await eventually(async () => {
      const shown = await mrOf();
      return shown.sha === head && shown.detailed_merge_status === 'mergeable';
    });
    const merged = await gitbeakerClient(fx.server.url, maintainer.token).MergeRequests.merge(upstream.id, iid, { sha: head });
    expect(merged.state).toBe('merged');
    const refused = await pushFeature(cli);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(REFUSED);
    expect((await writeFile(maintainer.token, 'feature')).status).toBe(403);
  });
});
