import { writeFile as write } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../test-support/merge-request-fixtures.js';
import type { GitCli, TestUser } from '../../../test-support/server.js';

/**
 * Approvals across real pushes with the git CLI: a push that changes the diff removes them
 * (GitLab's "remove all approvals when commits are added"); a rebase onto a target that touched
 * none of the merge request's files, or a reworded commit, leaves the diff identical and keeps
 * them, with a system note saying so; retaining approvals keeps them whatever the push.
 */
describe(`approvals and pushes (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let git: GitCli;
  let counter = 0;

  async function setup() {
    const name = `pushes-${++counter}`;
    const project = await fx.createProject(name);
    const developer: TestUser = await fx.member(project.id, 30);
    await fx.call('POST', `/projects/${project.id}/approvals`, { body: { approvals_before_merge: 1 } });
    const dir = name;
    await git.git(['clone', '--quiet', git.repoUrl(project.path_with_namespace), dir]);
    const run = (args: string[]) => git.git(['-c', 'user.name=Root', '-c', 'user.email=root@example.com', ...args], { cwd: dir });
    await run(['checkout', '-q', '-b', 'topic']);
    await writeFile(dir, 'feature.txt', 'one\n');
    await run(['add', 'feature.txt']);
    await run(['commit', '-q', '-m', 'Add feature']);
    return { project, developer, run, dir };
  }
  async function open(project: { id: number }, run: (args: string[]) => Promise<unknown>) {
    await run(['push', '-q', 'origin', 'topic']);
    const mr = await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'Feature');
    const path = `/projects/${project.id}/merge_requests/${mr.iid}`;
    await eventually(async () => ['mergeable', 'not_approved'].includes((await fx.call('GET', path)).body.detailed_merge_status));
    return path;
  }
  const approvers = async (path: string) => ((await fx.call('GET', `${path}/approvals`)).body.approved_by as Array<{ user: { username: string } }>).map((entry) => entry.user.username);
  const notes = async (path: string) => ((await fx.call('GET', `${path}/notes?sort=asc`)).body as Array<{ body: string; system: boolean }>).filter((note) => note.system).map((note) => note.body);
  const pushedVersion = async (path: string, sha: string) => eventually(async () => (await fx.call('GET', path)).body.sha === sha && (await fx.call('GET', `${path}/versions`)).body[0]?.head_commit_sha === sha);
  /** The status once the trial merge a push starts has run (until then the status is 'checking'). */
  const checkedStatus = (path: string) =>
    eventually(
      async () => {
        const status: string = (await fx.call('GET', path)).body.detailed_merge_status;
        return status !== 'checking' && status;
      },
      { what: 'the merge status after the push to be checked' },
    );

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    git = fx.rootGit();
  });
  afterAll(() => fx?.close());

  it('removes approvals when a push changes the diff', async () => {
    const { project, developer, run, dir } = await setup();
    const path = await open(project, run);
    expect((await fx.call('POST', `${path}/approve`, { token: developer.token })).status).toBe(201);
    await writeFile(dir, 'feature.txt', 'two\n');
    await run(['commit', '-q', '-am', 'Change feature']);
    await run(['push', '-q', 'origin', 'topic']);
    await pushedVersion(path, (await run(['rev-parse', 'HEAD'])).stdout.trim());
    expect(await approvers(path)).toEqual([]);
    expect(await notes(path)).toContain(`reset approvals from @${developer.username} by pushing to the branch`);
    expect(await checkedStatus(path)).toBe('not_approved');
  });

  it('keeps approvals when a rebase onto an unrelated target change leaves the diff identical, and says so', async () => {
    const { project, developer, run } = await setup();
    const path = await open(project, run);
    expect((await fx.call('POST', `${path}/approve`, { token: developer.token })).status).toBe(201);
    // the target moves on, touching none of the merge request's files
    await fx.root.Commits.create(project.id, 'main', 'Elsewhere', [{ action: 'create', filePath: 'other.txt', content: 'other\n' }]);
    await run(['fetch', '-q', 'origin', 'main']);
    await run(['rebase', '-q', 'origin/main']);
    await run(['push', '-q', '--force', 'origin', 'topic']);
    const rebased = (await run(['rev-parse', 'HEAD'])).stdout.trim();
    await pushedVersion(path, rebased);
    expect(await approvers(path)).toEqual([developer.username]);
    expect(await notes(path)).toContain(`kept approvals from @${developer.username} because the push left the diff unchanged`);
    expect(await checkedStatus(path)).toBe('mergeable');

    // a reworded commit: same diff again
    await run(['commit', '-q', '--amend', '-m', 'Add the feature, reworded']);
    await run(['push', '-q', '--force', 'origin', 'topic']);
    await pushedVersion(path, (await run(['rev-parse', 'HEAD'])).stdout.trim());
    expect(await approvers(path)).toEqual([developer.username]);
  });

  it('retains approvals on push when the project says so', async () => {
    const { project, developer, run, dir } = await setup();
    await fx.call('POST', `/projects/${project.id}/approvals`, { body: { reset_approvals_on_push: false } });
    const path = await open(project, run);
    expect((await fx.call('POST', `${path}/approve`, { token: developer.token })).status).toBe(201);
    await writeFile(dir, 'feature.txt', 'two\n');
    await run(['commit', '-q', '-am', 'Change feature']);
    await run(['push', '-q', 'origin', 'topic']);
    await pushedVersion(path, (await run(['rev-parse', 'HEAD'])).stdout.trim());
    expect(await approvers(path)).toEqual([developer.username]);
  });

  async function writeFile(dir: string, name: string, content: string): Promise<void> {
    await write(join(git.dir, dir, name), content);
  }
});
