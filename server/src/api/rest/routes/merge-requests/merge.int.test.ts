import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../../test-support/merge-request-fixtures.js';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** PUT …/merge through gitbeaker and plain HTTP: every merge method, squash, messages, refusals. */
describe(`merging merge requests (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let maintainer: TestUser;
  let developer: TestUser;
  let counter = 0;

  interface Fixture {
    project: { id: number; path_with_namespace: string };
  }

  const git = async (projectId: number, args: string[]) => (await fx.rawGit(projectId, args)).toString('utf8').trim();
  const commitInfo = async (projectId: number, sha: string) => {
    const [parents, author, committer, tree, message] = (await git(projectId, ['show', '-s', '--format=%P%x00%an <%ae>%x00%cn <%ce>%x00%T%x00%B', sha])).split('\0');
    return { parents: parents!.split(' ').filter(Boolean), author, committer, tree, message: message!.trim() };
  };
  const treeOf = (projectId: number, rev: string) => git(projectId, ['rev-parse', `${rev}^{tree}`]);

  /** A branch off `from` with one commit per file. */
  async function branch(projectId: number, name: string, files: Record<string, string>, from = 'main'): Promise<string> {
    let parent = await fx.tip(projectId, from);
    for (const [path, content] of Object.entries(files)) {
      parent = await fx.writeCommit(projectId, { parent, files: [{ path, content }], message: `Change ${path}\n\nBody of ${path}` });
    }
    await fx.setBranch(projectId, name, parent);
    return parent;
  }

  /** A project of its own (merge settings differ per test), with maintainer and developer as members. */
  async function project(settings: Record<string, unknown> = {}): Promise<Fixture> {
    const created = await fx.createProject(`merge-${++counter}`);
    await fx.root.ProjectMembers.add(created.id, 40, { userId: maintainer.id });
    await fx.root.ProjectMembers.add(created.id, 30, { userId: developer.id });
    if (Object.keys(settings).length > 0) await fx.call('PUT', `/projects/${created.id}`, { body: settings });
    return { project: created };
  }

  async function openMr(f: Fixture, source: string, options: { title?: string; removeSourceBranch?: boolean; squash?: boolean; token?: string } = {}) {
    const client = gitbeakerClient(fx.server.url, options.token ?? developer.token);
    return client.MergeRequests.create(f.project.id, source, 'main', options.title ?? `Merge ${source}`, {
      removeSourceBranch: options.removeSourceBranch,
      squash: options.squash,
    });
  }

  const merge = (projectId: number, iid: number, body: Record<string, unknown> = {}, token = maintainer.token) =>
    fx.call('PUT', `/projects/${projectId}/merge_requests/${iid}/merge`, { token, body });

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    maintainer = await fx.server.createUser({ name: 'Mia Maintainer', email: 'mia@example.com' });
    developer = await fx.server.createUser({ name: 'Dev Eloper', email: 'dev@example.com' });
  });
  afterAll(() => fx?.close());

  describe('merge commit', () => {
    it('merges with a merge commit authored by the merging user and the default message', async () => {
      const f = await project();
      const before = await fx.tip(f.project.id, 'main');
      const head = await branch(f.project.id, 'feature', { 'a.txt': 'a\n', 'b.txt': 'b\n' });
      const mr = await openMr(f, 'feature', { title: 'Add a and b' });

      const merged = await gitbeakerClient(fx.server.url, maintainer.token).MergeRequests.merge(f.project.id, mr.iid, { sha: head });
      const tip = await fx.tip(f.project.id, 'main');
      expect(merged).toMatchObject({
        state: 'merged',
        merge_commit_sha: tip,
        squash_commit_sha: null,
        merged_by: { id: maintainer.id },
        merge_user: { id: maintainer.id },
        merge_error: null,
        detailed_merge_status: 'not_open',
      });
      expect(Date.parse(merged.merged_at as string)).toBeGreaterThan(Date.now() - 60_000);
      const commit = await commitInfo(f.project.id, tip);
      expect(commit).toMatchObject({
        parents: [before, head],
        author: 'Mia Maintainer <mia@example.com>',
        committer: 'Mia Maintainer <mia@example.com>',
        message: `Merge branch 'feature' into 'main'\n\nAdd a and b\n\nSee merge request ${f.project.path_with_namespace}!${mr.iid}`,
      });
      // the source branch stays unless asked
      expect(await fx.tip(f.project.id, 'feature')).toBe(head);
    });

    it('records the merge: a merged event, the push event of the target branch, and the domain events', async () => {
      const f = await project();
      const before = await fx.tip(f.project.id, 'main');
      await branch(f.project.id, 'recorded', { 'r.txt': 'r\n' });
      const mr = await openMr(f, 'recorded');
      expect((await merge(f.project.id, mr.iid)).status).toBe(200);
      const tip = await fx.tip(f.project.id, 'main');
      const db = fx.server.app.db;
      const events = await db.query<{ action: string; user_id: number }>('SELECT action, user_id FROM merge_request_events WHERE merge_request_id = $1 ORDER BY id', [mr.id]);
      expect(events.rows.map((row) => row.action)).toEqual(['opened', 'merged']);
      expect(events.rows[1]!.user_id).toBe(maintainer.id);
      // the after-merge job records the push of the target branch (as GitLab's post-receive worker does)
      const push = await eventually(async () => (await db.query('SELECT ref, old_sha, new_sha, user_id FROM push_events WHERE project_id = $1 AND new_sha = $2', [f.project.id, tip])).rows[0]);
      expect(push).toEqual({ ref: 'refs/heads/main', old_sha: before, new_sha: tip, user_id: maintainer.id });
      const domain = await db.query<{ type: string; payload: Record<string, unknown> }>(`SELECT type, payload FROM domain_events WHERE type IN ('merge_request.changed', 'repository.pushed') ORDER BY id`);
      expect(domain.rows).toContainEqual({ type: 'merge_request.changed', payload: { mergeRequestId: mr.id, projectId: f.project.id } });
      const pushed = await db.query<{ payload: Record<string, unknown> }>(`SELECT payload FROM domain_events WHERE type = 'repository.pushed' ORDER BY id`);
      expect(pushed.rows.some((row) => JSON.stringify(row.payload).includes(tip))).toBe(true);
      const intents = () => db.query('SELECT state, post_merge_done, expected_old_sha, new_sha FROM merge_intents WHERE merge_request_id = $1', [mr.id]);
      await eventually(async () => (await intents()).rows[0]?.post_merge_done);
      expect((await intents()).rows).toEqual([{ state: 'done', post_merge_done: true, expected_old_sha: before, new_sha: tip }]);
    });

    it('uses the merge_commit_message sent', async () => {
      const f = await project();
      await branch(f.project.id, 'custom', { 'c.txt': 'c\n' });
      const mr = await openMr(f, 'custom');
      const response = await merge(f.project.id, mr.iid, { merge_commit_message: 'My own message\n\nwith a body' });
      expect(response.status).toBe(200);
      expect((await commitInfo(f.project.id, await fx.tip(f.project.id, 'main'))).message).toBe('My own message\n\nwith a body');
    });

    it("fills the project's merge commit template", async () => {
      const f = await project();
      await fx.server.app.db.query('UPDATE projects SET merge_commit_template = $2 WHERE id = $1', [
        f.project.id,
        '%{title} (%{local_reference})\n\n%{approved_by}\n\n%{all_commits}\n\nMerged-by: %{merged_by}',
      ]);
      await branch(f.project.id, 'templated', { 't1.txt': '1\n', 't2.txt': '2\n' });
      const mr = await openMr(f, 'templated', { title: 'Templated' });
      expect((await merge(f.project.id, mr.iid)).status).toBe(200);
      expect((await commitInfo(f.project.id, await fx.tip(f.project.id, 'main'))).message).toBe(
        `Templated (!${mr.iid})\n\n* Change t2.txt\n\nBody of t2.txt\n\n* Change t1.txt\n\nBody of t1.txt\n\nMerged-by: Mia Maintainer <mia@example.com>`,
      );
    });
  });

  describe('squash', () => {
    it('squashes the changes into one commit by the author on the merge base, then merges it', async () => {
      const f = await project();
      const base = await fx.tip(f.project.id, 'main');
      const head = await branch(f.project.id, 'squashed', { 's1.txt': '1\n', 's2.txt': '2\n' });
      await branch(f.project.id, 'elsewhere', { 'other.txt': 'other\n' });
      await fx.setBranch(f.project.id, 'main', await fx.tip(f.project.id, 'elsewhere'));
      const mr = await openMr(f, 'squashed', { title: 'Squash me' });
      const response = await merge(f.project.id, mr.iid, { squash: true, sha: head });
      expect(response.status).toBe(200);
      const squash = response.body.squash_commit_sha as string;
      expect(squash).toMatch(/^[0-9a-f]{40}$/);
      expect(await commitInfo(f.project.id, squash)).toMatchObject({
        parents: [base],
        author: 'Dev Eloper <dev@example.com>',
        committer: 'Mia Maintainer <mia@example.com>',
        message: 'Squash me',
      });
      expect(await treeOf(f.project.id, squash)).toBe(await treeOf(f.project.id, head));
      const merged = await commitInfo(f.project.id, await fx.tip(f.project.id, 'main'));
      expect(merged.parents).toEqual([await fx.tip(f.project.id, 'elsewhere'), squash]);
      expect(response.body.merge_commit_sha).toBe(await fx.tip(f.project.id, 'main'));
    });

    it('uses the squash_commit_message sent', async () => {
      const f = await project();
      await branch(f.project.id, 'sq-msg', { 'm.txt': 'm\n' });
      const mr = await openMr(f, 'sq-msg', { squash: true });
      const response = await merge(f.project.id, mr.iid, { squash_commit_message: 'One commit' });
      expect((await commitInfo(f.project.id, response.body.squash_commit_sha)).message).toBe('One commit');
    });

    it('never squashes when the project does not allow it, and always when it requires it', async () => {
      const never = await project({ squash_option: 'never' });
      const head = await branch(never.project.id, 'no-squash', { 'n.txt': 'n\n' });
      const mr = await openMr(never, 'no-squash');
      const response = await merge(never.project.id, mr.iid, { squash: true });
      expect(response.body.squash_commit_sha).toBeNull();
      expect((await commitInfo(never.project.id, await fx.tip(never.project.id, 'main'))).parents[1]).toBe(head);

      const always = await project({ squash_option: 'always' });
      await branch(always.project.id, 'must-squash', { 'x.txt': 'x\n', 'y.txt': 'y\n' });
      const forced = await openMr(always, 'must-squash');
      const squashed = await merge(always.project.id, forced.iid, { squash: false });
      expect(squashed.status).toBe(200);
      expect(squashed.body.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
      expect((await commitInfo(always.project.id, squashed.body.squash_commit_sha)).parents).toHaveLength(1);
    });
  });

  describe('semi-linear history', () => {
    it('refuses with 405 when the target is not an ancestor of the head (NEED_REBASE), and merges once it is', async () => {
      const f = await project({ merge_method: 'rebase_merge' });
      await branch(f.project.id, 'behind', { 'behind.txt': 'b\n' });
      const mr = await openMr(f, 'behind');
      await branch(f.project.id, 'moved', { 'moved.txt': 'm\n' });
      const before = await fx.tip(f.project.id, 'moved');
      await fx.setBranch(f.project.id, 'main', before);
      expect(await merge(f.project.id, mr.iid)).toMatchObject({ status: 405, body: { message: '405 Method Not Allowed' } });
      expect(await fx.tip(f.project.id, 'main')).toBe(before);

      const ahead = await branch(f.project.id, 'ahead', { 'ahead.txt': 'a\n' });
      const fresh = await openMr(f, 'ahead');
      const response = await merge(f.project.id, fresh.iid, { sha: ahead });
      expect(response.status).toBe(200);
      const commit = await commitInfo(f.project.id, await fx.tip(f.project.id, 'main'));
      expect(commit.parents).toEqual([before, ahead]);
      expect(commit.tree).toBe(await treeOf(f.project.id, ahead));
    });
  });

  describe('fast-forward', () => {
    it('refuses with 405 when fast-forward is not possible', async () => {
      const f = await project({ merge_method: 'ff' });
      await branch(f.project.id, 'ff-behind', { 'f.txt': 'f\n' });
      const mr = await openMr(f, 'ff-behind');
      await branch(f.project.id, 'ff-other', { 'g.txt': 'g\n' });
      await fx.setBranch(f.project.id, 'main', await fx.tip(f.project.id, 'ff-other'));
      expect((await merge(f.project.id, mr.iid)).status).toBe(405);
    });

    it('moves the target to the head, without a merge commit', async () => {
      const f = await project({ merge_method: 'ff' });
      const head = await branch(f.project.id, 'ff-ok', { 'f1.txt': '1\n', 'f2.txt': '2\n' });
      const mr = await openMr(f, 'ff-ok');
      const response = await merge(f.project.id, mr.iid, { sha: head });
      expect(response.status).toBe(200);
      expect(await fx.tip(f.project.id, 'main')).toBe(head);
      expect(response.body).toMatchObject({ state: 'merged', merge_commit_sha: null, squash_commit_sha: null });
    });

    it('fast-forwards to the squash commit when squashing', async () => {
      const f = await project({ merge_method: 'ff' });
      const before = await fx.tip(f.project.id, 'main');
      const head = await branch(f.project.id, 'ff-squash', { 'q1.txt': '1\n', 'q2.txt': '2\n' });
      const mr = await openMr(f, 'ff-squash', { title: 'Squashed fast-forward' });
      const response = await merge(f.project.id, mr.iid, { squash: true });
      const tip = await fx.tip(f.project.id, 'main');
      expect(response.body).toMatchObject({ merge_commit_sha: null, squash_commit_sha: tip });
      expect(await commitInfo(f.project.id, tip)).toMatchObject({ parents: [before], message: 'Squashed fast-forward' });
      expect(await treeOf(f.project.id, tip)).toBe(await treeOf(f.project.id, head));
    });
  });

  describe('refusals', () => {
    it('answers 409 when sha is not the head, and merges nothing', async () => {
      const f = await project();
      const head = await branch(f.project.id, 'sha', { 's.txt': 's\n' });
      const mr = await openMr(f, 'sha');
      const before = await fx.tip(f.project.id, 'main');
      const wrong = before;
      expect(await merge(f.project.id, mr.iid, { sha: wrong })).toMatchObject({
        status: 409,
        body: { message: `SHA does not match HEAD of source branch: ${head}` },
      });
      expect(await fx.tip(f.project.id, 'main')).toBe(before);
      expect((await fx.root.MergeRequests.show(f.project.id, mr.iid)).state).toBe('opened');
    });

    it('answers 409 when the source branch was pushed to after the page loaded, and merges nothing', async () => {
      const f = await project();
      const seen = await branch(f.project.id, 'pushed', { 'p.txt': 'p\n' });
      const mr = await openMr(f, 'pushed');
      // a push the server has not recorded as a version yet
      const pushed = await fx.writeCommit(f.project.id, { parent: seen, files: [{ path: 'late.txt', content: 'late\n' }], message: 'late' });
      await fx.setBranch(f.project.id, 'pushed', pushed);
      const before = await fx.tip(f.project.id, 'main');
      expect(await merge(f.project.id, mr.iid, { sha: seen })).toMatchObject({ status: 409, body: { message: `SHA does not match HEAD of source branch: ${pushed}` } });
      expect(await fx.tip(f.project.id, 'main')).toBe(before);
      expect((await fx.server.app.db.query('SELECT 1 FROM merge_intents WHERE merge_request_id = $1', [mr.id])).rowCount).toBe(0);
    });

    it('answers 405 for closed, draft and conflicting requests', async () => {
      const f = await project();
      await branch(f.project.id, 'closed', { 'c.txt': 'c\n' });
      const closed = await openMr(f, 'closed');
      await fx.root.MergeRequests.edit(f.project.id, closed.iid, { stateEvent: 'close' });
      await branch(f.project.id, 'drafty', { 'd.txt': 'd\n' });
      const draft = await openMr(f, 'drafty', { title: 'Draft: not yet' });
      await branch(f.project.id, 'conflicting', { 'README.md': 'mine\n' });
      await branch(f.project.id, 'theirs', { 'README.md': 'theirs\n' });
      await fx.setBranch(f.project.id, 'main', await fx.tip(f.project.id, 'theirs'));
      // Opened after main moved, so no stored check ever said "can be merged" (that case is a
      // failed merge, 422: merge-failure.int.test.ts).
      const conflicting = await openMr(f, 'conflicting');
      const before = await fx.tip(f.project.id, 'main');
      for (const iid of [closed.iid, draft.iid, conflicting.iid]) {
        expect(await merge(f.project.id, iid), `!${iid}`).toMatchObject({ status: 405, body: { message: '405 Method Not Allowed' } });
      }
      expect(await fx.tip(f.project.id, 'main')).toBe(before);
    });

    it('answers 401 to callers who may not merge into the target branch, 404 to those who cannot see it', async () => {
      const f = await project();
      await branch(f.project.id, 'perm', { 'p.txt': 'p\n' });
      const mr = await openMr(f, 'perm');
      const reporter = await fx.member(f.project.id, 20);
      const stranger = await fx.server.createUser();
      // main is protected (Maintainers merge): a Developer may not merge into it
      expect(await merge(f.project.id, mr.iid, {}, developer.token)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
      expect((await merge(f.project.id, mr.iid, {}, reporter.token)).status).toBe(401);
      expect(await merge(f.project.id, mr.iid, {}, stranger.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect((await fx.call('PUT', `/projects/${f.project.id}/merge_requests/${mr.iid}/merge`, { token: null })).status).toBe(401);
      expect((await merge(f.project.id, 9999)).status).toBe(404);
      // a Developer merges once the protection lets Developers merge
      await fx.call('DELETE', `/projects/${f.project.id}/protected_branches/main`);
      await fx.call('POST', `/projects/${f.project.id}/protected_branches`, { body: { name: 'main', push_access_level: 40, merge_access_level: 30 } });
      expect((await merge(f.project.id, mr.iid, {}, developer.token)).status).toBe(200);
    });

    it('lets a Developer merge into an unprotected branch', async () => {
      const f = await project();
      await fx.call('DELETE', `/projects/${f.project.id}/protected_branches/main`);
      await branch(f.project.id, 'unprotected', { 'u.txt': 'u\n' });
      const mr = await openMr(f, 'unprotected');
      expect((await merge(f.project.id, mr.iid, {}, developer.token)).status).toBe(200);
    });

    it('merges a request once: a second merge answers 405', async () => {
      const f = await project();
      await branch(f.project.id, 'twice', { 't.txt': 't\n' });
      const mr = await openMr(f, 'twice');
      expect((await merge(f.project.id, mr.iid)).status).toBe(200);
      const tip = await fx.tip(f.project.id, 'main');
      expect((await merge(f.project.id, mr.iid)).status).toBe(405);
      expect(await fx.tip(f.project.id, 'main')).toBe(tip);
    });
  });

  describe('deleting the source branch', () => {
    it('deletes it when asked, and records the deletion as a push', async () => {
      const f = await project();
      const head = await branch(f.project.id, 'delete-me', { 'd.txt': 'd\n' });
      const mr = await openMr(f, 'delete-me');
      const response = await merge(f.project.id, mr.iid, { should_remove_source_branch: true });
      expect(response.body).toMatchObject({ state: 'merged', should_remove_source_branch: true });
      // the after-merge job deletes the branch (compare-and-swap), then records the deletion
      const deletions = () => fx.server.app.db.query('SELECT ref, old_sha, new_sha FROM push_events WHERE project_id = $1 AND ref = $2', [f.project.id, 'refs/heads/delete-me']);
      await eventually(async () => (await deletions()).rowCount > 0);
      expect((await fx.call('GET', `/projects/${f.project.id}/repository/branches/delete-me`)).status).toBe(404);
      expect((await deletions()).rows).toEqual([{ ref: 'refs/heads/delete-me', old_sha: head, new_sha: '0'.repeat(40) }]);
    });

    it("deletes it as the author when the request asked for it at creation (force_remove_source_branch)", async () => {
      const f = await project();
      await branch(f.project.id, 'author-deletes', { 'a.txt': 'a\n' });
      const mr = await openMr(f, 'author-deletes', { removeSourceBranch: true });
      expect((await merge(f.project.id, mr.iid)).status).toBe(200);
      await eventually(async () => (await fx.call('GET', `/projects/${f.project.id}/repository/branches/author-deletes`)).status === 404);
    });

    it('keeps a protected source branch', async () => {
      const f = await project();
      await branch(f.project.id, 'release', { 'r.txt': 'r\n' });
      await fx.call('POST', `/projects/${f.project.id}/protected_branches`, { body: { name: 'release' } });
      const mr = await openMr(f, 'release', { token: maintainer.token });
      expect((await merge(f.project.id, mr.iid, { should_remove_source_branch: true })).status).toBe(200);
      await eventually(async () => (await fx.server.app.db.query('SELECT post_merge_done FROM merge_intents WHERE merge_request_id = $1', [mr.id])).rows[0]?.post_merge_done);
      expect((await fx.call('GET', `/projects/${f.project.id}/repository/branches/release`)).status).toBe(200);
    });
  });

  describe('forks', () => {
    it('merges a request from a fork, whose commits the target repository already holds', async () => {
      const f = await project();
      const forker = await fx.server.createUser({ name: 'Fork Owner', email: 'fork@example.com' });
      await fx.call('PUT', `/projects/${f.project.id}`, { body: { visibility: 'internal' } });
      const forked = await gitbeakerClient(fx.server.url, forker.token).Projects.fork(f.project.id);
      const forkId = forked.id as number;
      const head = await branch(forkId, 'from-fork', { 'fork.txt': 'from the fork\n' });
      const mr = await gitbeakerClient(fx.server.url, forker.token).MergeRequests.create(forkId, 'from-fork', 'main', 'From a fork', { targetProjectId: f.project.id });
      const response = await merge(f.project.id, mr.iid, { sha: head });
      expect(response.status).toBe(200);
      const commit = await commitInfo(f.project.id, await fx.tip(f.project.id, 'main'));
      expect(commit.parents[1]).toBe(head);
      expect(commit.author).toBe('Mia Maintainer <mia@example.com>');
      expect(await git(f.project.id, ['show', `${head}:fork.txt`])).toBe('from the fork');
    });
  });

  // Lesson A: refs named like git options (a push can create them) reach git only as full refs or SHAs.
  describe('branch names crafted as options', () => {
    const trap = join(tmpdir(), `tributary-merge-trap-${process.pid}`);
    beforeAll(() => mkdirSync(trap, { recursive: true }));
    afterAll(() => rmSync(trap, { recursive: true, force: true }));

    /** A request whose source and target branches are renamed, in git and in the database, to option-like names. */
    async function hostile(f: Fixture, method: string) {
      const source = `--exec=touch\${IFS}${trap}/exec-${method}`;
      const target = method === 'ff' ? '-x' : `--output=${trap}/out-${method}`;
      await fx.setBranch(f.project.id, `tgt-${method}`, await fx.tip(f.project.id, 'main'));
      const head = await branch(f.project.id, `src-${method}`, { [`${method}.txt`]: `${method}\n` }, `tgt-${method}`);
      const mr = await fx.root.MergeRequests.create(f.project.id, `src-${method}`, `tgt-${method}`, `Hostile ${method}`);
      for (const [safe, name] of [[`src-${method}`, source], [`tgt-${method}`, target]] as const) {
        await fx.rawGit(f.project.id, ['update-ref', `refs/heads/${name}`, await fx.tip(f.project.id, safe)]);
        await fx.rawGit(f.project.id, ['update-ref', '-d', `refs/heads/${safe}`]);
      }
      await fx.server.app.db.query('UPDATE merge_requests SET source_branch = $2, target_branch = $3 WHERE id = $1', [mr.id, source, target]);
      return { mr, head, source, target };
    }

    it.each(['merge', 'rebase_merge', 'ff'])('merges with method %s, squashing and deleting the source branch, and runs nothing', async (method) => {
      const f = await project({ merge_method: method });
      const { mr, head, source, target } = await hostile(f, method);
      const response = await merge(f.project.id, mr.iid, { sha: head, squash: true, should_remove_source_branch: true });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({ state: 'merged', source_branch: source, target_branch: target });
      const tip = (await fx.rawGit(f.project.id, ['rev-parse', `refs/heads/${target}`])).toString().trim();
      expect(await treeOf(f.project.id, tip)).toBe(await treeOf(f.project.id, head));
      await eventually(() => fx.rawGit(f.project.id, ['rev-parse', '--verify', `refs/heads/${source}`]).then(() => false, () => true));
      expect(readdirSync(trap)).toEqual([]);
    });

    it('rebases them, and runs nothing', async () => {
      const f = await project();
      const { mr, source, target } = await hostile(f, 'rebase');
      const moved = await fx.writeCommit(f.project.id, { parent: (await fx.rawGit(f.project.id, ['rev-parse', `refs/heads/${target}`])).toString().trim(), files: [{ path: 'up.txt', content: 'up\n' }] });
      await fx.rawGit(f.project.id, ['update-ref', `refs/heads/${target}`, moved]);
      expect((await fx.call('PUT', `/projects/${f.project.id}/merge_requests/${mr.iid}/rebase`, { token: maintainer.token })).status).toBe(202);
      await eventually(async () => !(await fx.root.MergeRequests.show(f.project.id, mr.iid)).rebase_in_progress);
      expect((await fx.root.MergeRequests.show(f.project.id, mr.iid)).merge_error).toBeNull();
      expect((await fx.rawGit(f.project.id, ['rev-parse', `refs/heads/${source}^`])).toString().trim()).toBe(moved);
      expect(readdirSync(trap)).toEqual([]);
    });
  });
});
