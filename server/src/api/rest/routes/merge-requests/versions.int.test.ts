import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { eventually } from '../../../../test-support/eventually.js';
import type { GitCli } from '../../../../test-support/server.js';

/** Versions follow pushes (in a background job), survive force pushes and gc, and ignore target moves. */
describe(`merge request versions (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number; path_with_namespace: string };
  let git: GitCli;
  let iid: number;
  const versions = () => fx.root.MergeRequests.allDiffVersions(project.id, iid);
  const sh = (args: string[]) => git.git(args, { cwd: 'work' });
  const commit = async (file: string, content: string, message: string) => {
    writeFileSync(join(git.dir, 'work', file), content);
    await sh(['add', '-A']);
    await sh(['commit', '-q', '-m', message]);
    return (await sh(['rev-parse', 'HEAD'])).stdout.trim();
  };
  const push = (...args: string[]) => sh(['push', '-q', git.repoUrl(project.path_with_namespace), ...args]);
  /** Waits until every refresh job enqueued so far, and at least `count` in all, has run. */
  const refreshesDone = (count: number) =>
    eventually(async () => {
      const { rows } = await fx.server.app.db.query<{ total: number; open: number }>(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE state <> 'done')::int AS open FROM background_jobs WHERE queue = 'merge_requests.refresh'`,
      );
      return rows[0]!.total >= count && rows[0]!.open === 0;
    });
  const refreshCount = async () => (await fx.server.app.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM background_jobs WHERE queue = 'merge_requests.refresh'`)).rows[0]!.total;

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    project = await fx.createProject('mr-versions');
    git = fx.rootGit();
    await git.git(['clone', '-q', git.repoUrl(project.path_with_namespace), 'work']);
    await sh(['checkout', '-q', '-b', 'topic']);
    await commit('shared.txt', 'topic version\n', 'Topic: first');
    await push('topic');
    iid = (await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'Topic')).iid;
  });
  afterAll(() => fx?.close());

  it('records a new version after a git push to the source branch, and moves the head ref', async () => {
    const second = await commit('second.txt', 'two\n', 'Topic: second');
    await push('topic');
    const list = await eventually(async () => ((await versions()).length === 2 ? versions() : null));
    expect(list[0]).toMatchObject({ head_commit_sha: second, state: 'collected', real_size: '2' });
    expect((await fx.rawGit(project.id, ['rev-parse', `refs/merge-requests/${iid}/head`])).toString().trim()).toBe(second);
    expect(await fx.root.MergeRequests.show(project.id, iid)).toMatchObject({ sha: second, changes_count: '2' });
  });

  it('records a version after an API commit to the source branch (the same push event)', async () => {
    const created = await fx.root.Commits.create(project.id, 'topic', 'Topic: via API', [{ action: 'create', filePath: 'api.txt', content: 'api\n' }]);
    const list = await eventually(async () => ((await versions()).length === 3 ? versions() : null));
    expect(list[0]!.head_commit_sha).toBe(created.id);
    await sh(['pull', '-q', '--ff-only', git.repoUrl(project.path_with_namespace), 'topic']);
  });

  it('keeps every old version viewable after a force push rewrites the branch, even after gc', async () => {
    const before = await versions();
    const oldHeads = before.map((version) => version.head_commit_sha);
    await sh(['reset', '-q', '--hard', 'origin/main']);
    const rewritten = await commit('shared.txt', 'rewritten\n', 'Topic: rewritten');
    await push('--force', 'topic');
    const after = await eventually(async () => ((await versions()).length === before.length + 1 ? versions() : null));
    expect(after[0]).toMatchObject({ head_commit_sha: rewritten, real_size: '1' });
    for (const sha of oldHeads) expect((await fx.rawGit(project.id, ['rev-parse', `refs/keep-around/${sha}`])).toString().trim()).toBe(sha);
    await fx.rawGit(project.id, ['gc', '-q', '--prune=now']);
    for (const version of before) {
      const detail = await fx.root.MergeRequests.showDiffVersion(project.id, iid, version.id);
      expect(detail.head_commit_sha).toBe(version.head_commit_sha);
      expect(detail.commits[0]!.id).toBe(version.head_commit_sha);
      expect(detail.diffs.length).toBeGreaterThan(0);
    }
    const first = before[before.length - 1]!;
    const oldest = await fx.root.MergeRequests.showDiffVersion(project.id, iid, first.id);
    expect(oldest.diffs.map((diff) => diff.new_path)).toEqual(['shared.txt']);
    expect(oldest.diffs[0]!.diff).toContain('+topic version');
    // The Changes tab compares two versions by their heads (a straight compare): still possible after gc.
    const between = await fx.root.Repositories.compare(project.id, first.head_commit_sha, rewritten, { straight: true });
    expect(between.diffs?.find((diff) => diff.new_path === 'shared.txt')?.diff).toBe('@@ -1 +1 @@\n-topic version\n+rewritten\n');
  });

  it('does not record a version when only the target branch moves, and rechecks mergeability', async () => {
    const before = await versions();
    const mr = await fx.root.MergeRequests.show(project.id, iid, { includeDivergedCommitsCount: true });
    expect(mr).toMatchObject({ merge_status: 'can_be_merged', has_conflicts: false, diverged_commits_count: 0 });
    // root (Owner) may push to the protected main: a conflicting change to shared.txt.
    await sh(['checkout', '-q', 'main']);
    await commit('shared.txt', 'main changed it too\n', 'Main: conflicting change');
    await push('main');
    const rechecked = await eventually(async () => {
      const current = await fx.root.MergeRequests.show(project.id, iid, { includeDivergedCommitsCount: true });
      return current.merge_status === 'cannot_be_merged' ? current : null;
    });
    expect(rechecked).toMatchObject({ has_conflicts: true, detailed_merge_status: 'conflict', diverged_commits_count: 1, diff_refs: mr.diff_refs });
    expect(await versions()).toEqual(before);
    await sh(['checkout', '-q', 'topic']);
  });

  it('keeps the merge request open and its versions when the source branch is deleted', async () => {
    const before = await versions();
    const jobs = await refreshCount();
    await push('--delete', 'topic');
    await refreshesDone(jobs + 1);
    expect(await fx.root.MergeRequests.show(project.id, iid)).toMatchObject({ state: 'opened' });
    expect(await versions()).toEqual(before);
    const reopen = await push('topic');
    expect(reopen.code).toBe(0);
  });

  it('refreshes idempotently: the same job twice makes one version', async () => {
    const { mergeRequestVersions } = fx.server.app.services;
    const before = await versions();
    await Promise.all([mergeRequestVersions.refresh({ projectId: project.id, branches: ['topic'] }), mergeRequestVersions.refresh({ projectId: project.id, branches: ['topic'] })]);
    expect(await versions()).toEqual(before);
  });

  it('records each version of a 100-file change (its speed is measured by npm run bench)', async () => {
    const { mergeRequestVersions, mergeRequests } = fx.server.app.services;
    const start = await fx.tip(project.id, 'main');
    await fx.setBranch(project.id, 'hundred', start);
    const created = await mergeRequests.create({ user: (await fx.server.app.services.usersRepository.findById(fx.server.root.id))!, scopes: null, via: 'session' }, project.id, {
      sourceBranch: 'hundred',
      targetBranch: 'main',
      title: '100 files',
    });
    let parent = start;
    for (let round = 0; round < 2; round++) {
      const files = Array.from({ length: 100 }, (_, i) => ({ path: `src/module-${i}/file-${i}.ts`, content: Array.from({ length: 40 }, (_, line) => `export const v${line} = ${round * 1000 + i};`).join('\n') }));
      parent = await fx.writeCommit(project.id, { parent, files, message: `100 files, round ${round}` });
      await fx.setBranch(project.id, 'hundred', parent);
      const result = await mergeRequestVersions.record(created.mergeRequest);
      expect(result.decision).toBe('record');
    }
    const [latest] = await fx.root.MergeRequests.allDiffVersions(project.id, created.mergeRequest.iid);
    expect(latest).toMatchObject({ head_commit_sha: parent, real_size: '100' });
  });
});
