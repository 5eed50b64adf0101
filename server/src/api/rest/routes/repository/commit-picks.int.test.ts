import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

const REVERT_REFUSED =
  'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.';
const PICK_REFUSED =
  'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.';

/** POST /projects/:id/repository/commits/:sha/revert and /cherry_pick, through @gitbeaker/rest. */
describe(`commit revert and cherry-pick API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let reporter: TestUser;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('commit-picks');
    developer = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
  });

  afterAll(async () => {
    await fx?.close();
  });

  const tip = (branch: string) => fx.bareGit(project.id, ['rev-parse', `refs/heads/${branch}`]);
  const file = (rev: string, path: string) => fx.bareGit(project.id, ['show', `${rev}:${path}`]).catch(() => null);
  const commitFile = (branch: string, path: string, content: string, action: 'create' | 'update' = 'create', message = `Write ${path}`) =>
    fx.root.Commits.create(project.id, branch, message, [{ action, filePath: path, content }]);

  it('reverts a plain commit on a branch: a new commit restoring the parent, pushed as an event (201)', async () => {
    const added = await commitFile('main', 'plain.txt', 'plain\n');
    const before = await tip('main');
    const revert = await fx.root.Commits.revert(project.id, added.id, 'main');
    expect(revert).toMatchObject({ title: 'Revert "Write plain.txt"', message: `Revert "Write plain.txt"\n\nThis reverts commit ${added.id}`, parent_ids: [before] });
    expect(await tip('main')).toBe(revert.id);
    expect(await file('main', 'plain.txt')).toBeNull();
    // The write went through the push path: the project's events name the push.
    const events = await fx.call<Array<{ action_name: string; push_data: { commit_to: string } | null }>>('GET', `/projects/${project.id}/events`);
    expect(events.body.some((event) => event.push_data?.commit_to === revert.id)).toBe(true);
  });

  it('cherry-picks a commit from another branch, keeping its author, with a custom message (201)', async () => {
    await fx.root.Branches.create(project.id, 'topic', 'main');
    const onTopic = await commitFile('topic', 'picked.txt', 'picked\n');
    const picked = await fx.root.Commits.cherryPick(project.id, onTopic.id, 'main', { message: 'Picked by hand' });
    expect(picked).toMatchObject({ message: 'Picked by hand', author_email: onTopic.author_email });
    expect(await file('main', 'picked.txt')).toBe('picked');
    const defaultMessage = await commitFile('topic', 'second.txt', 'second\n');
    const again = await fx.root.Commits.cherryPick(project.id, defaultMessage.id, 'main');
    expect(again.message).toBe(`Write second.txt\n\n(cherry picked from commit ${defaultMessage.id})`);
  });

  it('reverts and cherry-picks a merge commit relative to its first parent', async () => {
    await fx.root.Branches.create(project.id, 'feature', 'main');
    await commitFile('feature', 'feature.txt', 'feature\n');
    await commitFile('main', 'mainline.txt', 'mainline\n');
    // A true merge commit, built with the stock client as a push would bring it.
    const [main, feature] = await Promise.all([tip('main'), tip('feature')]);
    const tree = (await fx.bareGit(project.id, ['merge-tree', '--write-tree', main, feature])).split('\n')[0]!;
    const merge = await fx.bareGit(project.id, ['commit-tree', tree, '-p', main, '-p', feature, '-m', 'Merge feature'], {
      env: { GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' },
    });
    await fx.bareGit(project.id, ['update-ref', 'refs/heads/main', merge, main]);

    await fx.root.Branches.create(project.id, 'before-merge', main);
    const picked = await fx.root.Commits.cherryPick(project.id, merge, 'before-merge');
    expect(picked.parent_ids).toEqual([main]);
    expect(await file('before-merge', 'feature.txt')).toBe('feature');

    const revert = await fx.root.Commits.revert(project.id, merge, 'main');
    expect(revert.parent_ids).toEqual([merge]);
    expect(await file('main', 'feature.txt')).toBeNull();
    expect(await file('main', 'mainline.txt')).toBe('mainline');
  });

  it('refuses a conflicting change with 400 and error_code conflict, leaving the branch', async () => {
    const changed = await commitFile('main', 'conflict.txt', 'one\n');
    await commitFile('main', 'conflict.txt', 'two\n', 'update');
    const before = await tip('main');
    const response = await fx.call('POST', `/projects/${project.id}/repository/commits/${changed.id}/revert`, { body: { branch: 'main' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: REVERT_REFUSED, error_code: 'conflict' });
    await expect(fx.root.Commits.revert(project.id, changed.id, 'main')).rejects.toMatchObject({ cause: { response: { status: 400 } } });
    expect(await tip('main')).toBe(before);
  });

  it('refuses a change already there with 400 and error_code empty', async () => {
    const added = await commitFile('main', 'empty.txt', 'same\n');
    const response = await fx.call('POST', `/projects/${project.id}/repository/commits/${added.id}/cherry_pick`, { body: { branch: 'main' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: PICK_REFUSED, error_code: 'empty' });
  });

  it('answers a dry run without writing', async () => {
    const added = await commitFile('main', 'dry.txt', 'dry\n');
    const response = await fx.call('POST', `/projects/${project.id}/repository/commits/${added.id}/revert`, { body: { branch: 'main', dry_run: true } });
    expect(response).toMatchObject({ status: 200, body: { dry_run: 'success' } });
    expect(await tip('main')).toBe(added.id);
  });

  it('needs push rights (403), hides unseen projects (404) and applies branch protection (403)', async () => {
    const added = await commitFile('main', 'guarded.txt', 'guarded\n');
    await fx.root.Branches.create(project.id, 'dev-branch', 'main');
    await expect(gitbeakerClient(fx.server.url, reporter.token).Commits.revert(project.id, added.id, 'dev-branch')).rejects.toMatchObject({
      cause: { response: { status: 403 } },
    });
    const stranger = await fx.server.createUser();
    const unseen = await fx.call('POST', `/projects/${project.id}/repository/commits/${added.id}/revert`, { token: stranger.token, body: { branch: 'dev-branch' } });
    expect(unseen.status).toBe(404);
    // main is protected for maintainers by default: a developer may not write there.
    const protectedResponse = await fx.call('POST', `/projects/${project.id}/repository/commits/${added.id}/revert`, { token: developer.token, body: { branch: 'main' } });
    expect(protectedResponse).toMatchObject({ status: 403, body: { message: '403 Forbidden - You are not allowed to push into this branch' } });
    // ...but may on an unprotected branch.
    const allowed = await gitbeakerClient(fx.server.url, developer.token).Commits.revert(project.id, added.id, 'dev-branch');
    expect(allowed.author_email).not.toBe(added.author_email);
  });

  it('answers 404 for unknown commits and branches, and never passes option-like refs to git', async () => {
    const missing = await fx.call('POST', `/projects/${project.id}/repository/commits/${'0'.repeat(40)}/revert`, { body: { branch: 'main' } });
    expect(missing).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    const head = await tip('main');
    const noBranch = await fx.call('POST', `/projects/${project.id}/repository/commits/${head}/revert`, { body: { branch: 'nope' } });
    expect(noBranch).toMatchObject({ status: 404, body: { message: '404 Branch Not Found' } });
    const optionSha = await fx.call('POST', `/projects/${project.id}/repository/commits/--output=%2Ftmp%2Fx/cherry_pick`, { body: { branch: 'main' } });
    // The command builder refuses it before git runs, as for GET .../commits/:sha.
    const optionShow = await fx.call('GET', `/projects/${project.id}/repository/commits/--output=%2Ftmp%2Fx`);
    expect(optionSha.status).toBe(optionShow.status);
    expect([400, 404]).toContain(optionSha.status);
    const optionBranch = await fx.call('POST', `/projects/${project.id}/repository/commits/${head}/revert`, { body: { branch: '--upload-pack=touch' } });
    expect(optionBranch.status).toBe(404);
    const missingBranch = await fx.call('POST', `/projects/${project.id}/repository/commits/${head}/revert`, { body: {} });
    expect(missingBranch.status).toBe(400);
    expect(await tip('main')).toBe(head);
  });
});
