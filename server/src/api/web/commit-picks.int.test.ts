import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../test-support/merge-request-fixtures.js';
import { eventually } from '../../test-support/eventually.js';
import { gitbeakerClient, type TestUser } from '../../test-support/server.js';

/**
 * The merge widget's Revert / Cherry-pick: a new branch and merge request, in
 * the project for those who can push, in the caller's fork (made when missing) for those who
 * cannot; the merge request crosses from the fork into the project.
 */
describe(`revert and cherry-pick into a new merge request (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number; path_with_namespace: string };
  let mergeCommit: string;
  let reporter: TestUser;
  let developer: TestUser;

  const pick = (kind: 'revert' | 'cherry_pick', sha: string, token: string | null, body: Record<string, unknown> = { target_branch: 'main' }) =>
    fetch(`${fx.server.url}/-/projects/${project.id}/commits/${sha}/${kind}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'private-token': token } : {}) },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as { notice: string | null; merge_request: { iid: number } } }));
  const files = async (projectId: number, ref: string) => (await fx.rawGit(projectId, ['ls-tree', '--name-only', ref])).toString().trim().split('\n');

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    project = await fx.createProject('picked');
    const head = await fx.writeCommit(project.id, { parent: await fx.tip(project.id, 'main'), files: [{ path: 'feature.txt', content: 'feature\n' }], message: 'Add the feature' });
    await fx.setBranch(project.id, 'feature', head);
    const mr = await fx.root.MergeRequests.create(project.id, 'feature', 'main', 'Add the feature');
    const merged = await eventually(async () => {
      const response = await fx.call('PUT', `/projects/${project.id}/merge_requests/${mr.iid}/merge`);
      return response.status === 200 ? response.body : null;
    });
    mergeCommit = merged.merge_commit_sha;
    reporter = await fx.member(project.id, 20);
    developer = await fx.member(project.id, 30);
  });
  afterAll(() => fx?.close());

  it('makes a fork for a caller who cannot push, reverts there, and opens the merge request into the project', async () => {
    const response = await pick('revert', mergeCommit, reporter.token);
    expect(response.status).toBe(201);
    expect(response.body.notice).toBe("You're not allowed to make changes to this project directly. A fork of this project has been created that you can make changes in, so you can submit a merge request.");
    const forks = await gitbeakerClient(fx.server.url, reporter.token).Projects.allForks(project.id);
    expect(forks.map((fork) => fork.path_with_namespace)).toEqual([`${reporter.username}/picked`]);
    const fork = forks[0]!;
    const branch = `revert-${mergeCommit.slice(0, 8)}`;
    expect(response.body.merge_request).toMatchObject({ project_id: project.id, source_project_id: fork.id, source_branch: branch, target_branch: 'main', title: `Revert "Merge branch 'feature' into 'main'"` });

    const shown = await fx.root.MergeRequests.show(project.id, response.body.merge_request.iid);
    expect(shown).toMatchObject({ source_project_id: fork.id, target_project_id: project.id, source_branch: branch, state: 'opened' });
    // The revert is in the fork, on top of the project's main; the project itself has no new branch.
    expect(await files(fork.id as number, `refs/heads/${branch}`)).toEqual(['README.md']);
    expect((await fx.rawGit(fork.id as number, ['rev-parse', `refs/heads/${branch}^`])).toString().trim()).toBe(mergeCommit);
    expect((await fx.call('GET', `/projects/${project.id}/repository/branches/${branch}`)).status).toBe(404);
  });

  it('uses the fork the caller already has', async () => {
    // A change not on main yet, on another branch of the project.
    const head = await fx.writeCommit(project.id, { parent: await fx.tip(project.id, 'main'), files: [{ path: 'other.txt', content: 'other\n' }], message: 'Add the other thing' });
    await fx.setBranch(project.id, 'other', head);
    const response = await pick('cherry_pick', head, reporter.token);
    expect(response.status).toBe(201);
    expect(response.body.notice).toBeNull();
    const forks = await fx.root.Projects.allForks(project.id);
    expect(forks).toHaveLength(1);
    expect(response.body.merge_request).toMatchObject({ source_project_id: forks[0]!.id, source_branch: `cherry-pick-${head.slice(0, 8)}`, title: 'Add the other thing' });
    expect(await files(forks[0]!.id as number, `refs/heads/cherry-pick-${head.slice(0, 8)}`)).toEqual(['README.md', 'feature.txt', 'other.txt']);
  });

  it('keeps the branch in the project for a caller who can push', async () => {
    const response = await pick('revert', mergeCommit, developer.token);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ notice: null, merge_request: { project_id: project.id, source_project_id: project.id, source_branch: `revert-${mergeCommit.slice(0, 8)}` } });
    expect(await files(project.id, `refs/heads/revert-${mergeCommit.slice(0, 8)}`)).toEqual(['README.md']);
  });

  it('answers 404 to callers who cannot see the project or the commit, 401 without a user', async () => {
    const stranger = await fx.server.createUser();
    expect((await pick('revert', mergeCommit, stranger.token)).status).toBe(404);
    expect((await pick('revert', 'f'.repeat(40), reporter.token)).status).toBe(404);
    expect((await pick('revert', mergeCommit, null)).status).toBe(401);
  });
});
