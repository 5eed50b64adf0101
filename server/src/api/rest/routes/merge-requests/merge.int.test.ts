import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startMergingFixtures, type MergingFixtures } from '../../../../test-support/merging-fixtures.js';
import { gitbeakerClient } from '../../../../test-support/server.js';

/**
 * PUT …/merge through gitbeaker and plain HTTP: every merge method, squash, messages, deleting the
 * source branch, forks. What a merge refuses, and branch names crafted as options: merge-guards.int.test.ts.
 */
describe(`merging merge requests (${testDatabaseKind()})`, () => {
  let fx: MergingFixtures;

  beforeAll(async () => {
    fx = await startMergingFixtures();
  });
  afterAll(() => fx?.close());

  describe('merge commit', () => {
    it('merges with a merge commit authored by the merging user and the default message', async () => {
      const f = await fx.project();
      const before = await fx.tip(f.project.id, 'main');
      const head = await fx.branch(f.project.id, 'feature', { 'a.txt': 'a\n', 'b.txt': 'b\n' });
      const mr = await fx.openMr(f, 'feature', { title: 'Add a and b' });

      const merged = await gitbeakerClient(fx.server.url, fx.maintainer.token).MergeRequests.merge(f.project.id, mr.iid, { sha: head });
      const tip = await fx.tip(f.project.id, 'main');
      expect(merged).toMatchObject({
        state: 'merged',
        merge_commit_sha: tip,
        squash_commit_sha: null,
        merged_by: { id: fx.maintainer.id },
        merge_user: { id: fx.maintainer.id },
        merge_error: null,
        detailed_merge_status: 'not_open',
      });
      expect(Date.parse(merged.merged_at as string)).toBeGreaterThan(Date.now() - 60_000);
      const commit = await fx.commitInfo(f.project.id, tip);
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
      const f = await fx.project();
      const before = await fx.tip(f.project.id, 'main');
      await fx.branch(f.project.id, 'recorded', { 'r.txt': 'r\n' });
      const mr = await fx.openMr(f, 'recorded');
      expect((await fx.merge(f.project.id, mr.iid)).status).toBe(200);
      const tip = await fx.tip(f.project.id, 'main');
      const db = fx.server.app.db;
      const events = await db.query<{ action: string; user_id: number }>('SELECT action, user_id FROM merge_request_events WHERE merge_request_id = $1 ORDER BY id', [mr.id]);
      expect(events.rows.map((row) => row.action)).toEqual(['opened', 'merged']);
      expect(events.rows[1]!.user_id).toBe(fx.maintainer.id);
      // the after-merge job records the push of the target branch (as GitLab's post-receive worker does)
      const push = await eventually(async () => (await db.query('SELECT ref, old_sha, new_sha, user_id FROM push_events WHERE project_id = $1 AND new_sha = $2', [f.project.id, tip])).rows[0]);
      expect(push).toEqual({ ref: 'refs/heads/main', old_sha: before, new_sha: tip, user_id: fx.maintainer.id });
      const domain = await db.query<{ type: string; payload: Record<string, unknown> }>(`SELECT type, payload FROM domain_events WHERE type IN ('merge_request.changed', 'repository.pushed') ORDER BY id`);
      expect(domain.rows).toContainEqual({ type: 'merge_request.changed', payload: { mergeRequestId: mr.id, projectId: f.project.id } });
      const pushed = await db.query<{ payload: Record<string, unknown> }>(`SELECT payload FROM domain_events WHERE type = 'repository.pushed' ORDER BY id`);
      expect(pushed.rows.some((row) => JSON.stringify(row.payload).includes(tip))).toBe(true);
      const intents = () => db.query('SELECT state, post_merge_done, expected_old_sha, new_sha FROM merge_intents WHERE merge_request_id = $1', [mr.id]);
      await eventually(async () => (await intents()).rows[0]?.post_merge_done);
      expect((await intents()).rows).toEqual([{ state: 'done', post_merge_done: true, expected_old_sha: before, new_sha: tip }]);
    });

    it('uses the merge_commit_message sent', async () => {
      const f = await fx.project();
      await fx.branch(f.project.id, 'custom', { 'c.txt': 'c\n' });
      const mr = await fx.openMr(f, 'custom');
      const response = await fx.merge(f.project.id, mr.iid, { merge_commit_message: 'My own message\n\nwith a body' });
      expect(response.status).toBe(200);
      expect((await fx.commitInfo(f.project.id, await fx.tip(f.project.id, 'main'))).message).toBe('My own message\n\nwith a body');
    });

    it("fills the project's merge commit template", async () => {
      const f = await fx.project();
      await fx.server.app.db.query('UPDATE projects SET merge_commit_template = $2 WHERE id = $1', [
        f.project.id,
        '%{title} (%{local_reference})\n\n%{approved_by}\n\n%{all_commits}\n\nMerged-by: %{merged_by}',
      ]);
      await fx.branch(f.project.id, 'templated', { 't1.txt': '1\n', 't2.txt': '2\n' });
      const mr = await fx.openMr(f, 'templated', { title: 'Templated' });
      expect((await fx.merge(f.project.id, mr.iid)).status).toBe(200);
      expect((await fx.commitInfo(f.project.id, await fx.tip(f.project.id, 'main'))).message).toBe(
        `Templated (!${mr.iid})\n\n* Change t2.txt\n\nBody of t2.txt\n\n* Change t1.txt\n\nBody of t1.txt\n\nMerged-by: Mia Maintainer <mia@example.com>`,
      );
    });
  });

  describe('squash', () => {
    it('squashes the changes into one commit by the author on the merge base, then merges it', async () => {
      const f = await fx.project();
      const base = await fx.tip(f.project.id, 'main');
      const head = await fx.branch(f.project.id, 'squashed', { 's1.txt': '1\n', 's2.txt': '2\n' });
      await fx.branch(f.project.id, 'elsewhere', { 'other.txt': 'other\n' });
      await fx.setBranch(f.project.id, 'main', await fx.tip(f.project.id, 'elsewhere'));
      const mr = await fx.openMr(f, 'squashed', { title: 'Squash me' });
      const response = await fx.merge(f.project.id, mr.iid, { squash: true, sha: head });
      expect(response.status).toBe(200);
      const squash = response.body.squash_commit_sha as string;
      expect(squash).toMatch(/^[0-9a-f]{40}$/);
      expect(await fx.commitInfo(f.project.id, squash)).toMatchObject({
        parents: [base],
        author: 'Dev Eloper <dev@example.com>',
        committer: 'Mia Maintainer <mia@example.com>',
        message: 'Squash me',
      });
      expect(await fx.treeOf(f.project.id, squash)).toBe(await fx.treeOf(f.project.id, head));
      const merged = await fx.commitInfo(f.project.id, await fx.tip(f.project.id, 'main'));
      expect(merged.parents).toEqual([await fx.tip(f.project.id, 'elsewhere'), squash]);
      expect(response.body.merge_commit_sha).toBe(await fx.tip(f.project.id, 'main'));
    });

    it('uses the squash_commit_message sent', async () => {
      const f = await fx.project();
      await fx.branch(f.project.id, 'sq-msg', { 'm.txt': 'm\n' });
      const mr = await fx.openMr(f, 'sq-msg', { squash: true });
      const response = await fx.merge(f.project.id, mr.iid, { squash_commit_message: 'One commit' });
      expect((await fx.commitInfo(f.project.id, response.body.squash_commit_sha)).message).toBe('One commit');
    });

    it('never squashes when the project does not allow it, and always when it requires it', async () => {
      const never = await fx.project({ squash_option: 'never' });
      const head = await fx.branch(never.project.id, 'no-squash', { 'n.txt': 'n\n' });
      const mr = await fx.openMr(never, 'no-squash');
      const response = await fx.merge(never.project.id, mr.iid, { squash: true });
      expect(response.body.squash_commit_sha).toBeNull();
      expect((await fx.commitInfo(never.project.id, await fx.tip(never.project.id, 'main'))).parents[1]).toBe(head);

      const always = await fx.project({ squash_option: 'always' });
      await fx.branch(always.project.id, 'must-squash', { 'x.txt': 'x\n', 'y.txt': 'y\n' });
      const forced = await fx.openMr(always, 'must-squash');
      const squashed = await fx.merge(always.project.id, forced.iid, { squash: false });
      expect(squashed.status).toBe(200);
      expect(squashed.body.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
      expect((await fx.commitInfo(always.project.id, squashed.body.squash_commit_sha)).parents).toHaveLength(1);
    });
  });

  describe('semi-linear history', () => {
    it('refuses with 405 when the target is not an ancestor of the head (NEED_REBASE), and merges once it is', async () => {
      const f = await fx.project({ merge_method: 'rebase_merge' });
      await fx.branch(f.project.id, 'behind', { 'behind.txt': 'b\n' });
      const mr = await fx.openMr(f, 'behind');
      await fx.branch(f.project.id, 'moved', { 'moved.txt': 'm\n' });
      const before = await fx.tip(f.project.id, 'moved');
      await fx.setBranch(f.project.id, 'main', before);
      expect(await fx.merge(f.project.id, mr.iid)).toMatchObject({ status: 405, body: { message: '405 Method Not Allowed' } });
      expect(await fx.tip(f.project.id, 'main')).toBe(before);

      const ahead = await fx.branch(f.project.id, 'ahead', { 'ahead.txt': 'a\n' });
      const fresh = await fx.openMr(f, 'ahead');
      const response = await fx.merge(f.project.id, fresh.iid, { sha: ahead });
      expect(response.status).toBe(200);
      const commit = await fx.commitInfo(f.project.id, await fx.tip(f.project.id, 'main'));
      expect(commit.parents).toEqual([before, ahead]);
      expect(commit.tree).toBe(await fx.treeOf(f.project.id, ahead));
    });
  });

  describe('fast-forward', () => {
    it('refuses with 405 when fast-forward is not possible', async () => {
      const f = await fx.project({ merge_method: 'ff' });
      await fx.branch(f.project.id, 'ff-behind', { 'f.txt': 'f\n' });
      const mr = await fx.openMr(f, 'ff-behind');
      await fx.branch(f.project.id, 'ff-other', { 'g.txt': 'g\n' });
      await fx.setBranch(f.project.id, 'main', await fx.tip(f.project.id, 'ff-other'));
      expect((await fx.merge(f.project.id, mr.iid)).status).toBe(405);
    });

    it('moves the target to the head, without a merge commit', async () => {
      const f = await fx.project({ merge_method: 'ff' });
      const head = await fx.branch(f.project.id, 'ff-ok', { 'f1.txt': '1\n', 'f2.txt': '2\n' });
      const mr = await fx.openMr(f, 'ff-ok');
      const response = await fx.merge(f.project.id, mr.iid, { sha: head });
      expect(response.status).toBe(200);
      expect(await fx.tip(f.project.id, 'main')).toBe(head);
      expect(response.body).toMatchObject({ state: 'merged', merge_commit_sha: null, squash_commit_sha: null });
    });

    it('fast-forwards to the squash commit when squashing', async () => {
      const f = await fx.project({ merge_method: 'ff' });
      const before = await fx.tip(f.project.id, 'main');
      const head = await fx.branch(f.project.id, 'ff-squash', { 'q1.txt': '1\n', 'q2.txt': '2\n' });
      const mr = await fx.openMr(f, 'ff-squash', { title: 'Squashed fast-forward' });
      const response = await fx.merge(f.project.id, mr.iid, { squash: true });
      const tip = await fx.tip(f.project.id, 'main');
      expect(response.body).toMatchObject({ merge_commit_sha: null, squash_commit_sha: tip });
      expect(await fx.commitInfo(f.project.id, tip)).toMatchObject({ parents: [before], message: 'Squashed fast-forward' });
      expect(await fx.treeOf(f.project.id, tip)).toBe(await fx.treeOf(f.project.id, head));
    });
  });

  describe('deleting the source branch', () => {
    it('deletes it when asked, and records the deletion as a push', async () => {
      const f = await fx.project();
      const head = await fx.branch(f.project.id, 'delete-me', { 'd.txt': 'd\n' });
      const mr = await fx.openMr(f, 'delete-me');
      const response = await fx.merge(f.project.id, mr.iid, { should_remove_source_branch: true });
      expect(response.body).toMatchObject({ state: 'merged', should_remove_source_branch: true });
      // the after-merge job deletes the branch (compare-and-swap), then records the deletion
      const deletions = () => fx.server.app.db.query('SELECT ref, old_sha, new_sha FROM push_events WHERE project_id = $1 AND ref = $2', [f.project.id, 'refs/heads/delete-me']);
      await eventually(async () => (await deletions()).rowCount > 0);
      expect((await fx.call('GET', `/projects/${f.project.id}/repository/branches/delete-me`)).status).toBe(404);
      expect((await deletions()).rows).toEqual([{ ref: 'refs/heads/delete-me', old_sha: head, new_sha: '0'.repeat(40) }]);
    });

    it("deletes it as the author when the request asked for it at creation (force_remove_source_branch)", async () => {
      const f = await fx.project();
      await fx.branch(f.project.id, 'author-deletes', { 'a.txt': 'a\n' });
      const mr = await fx.openMr(f, 'author-deletes', { removeSourceBranch: true });
      expect((await fx.merge(f.project.id, mr.iid)).status).toBe(200);
      await eventually(async () => (await fx.call('GET', `/projects/${f.project.id}/repository/branches/author-deletes`)).status === 404);
    });

    it('keeps a protected source branch', async () => {
      const f = await fx.project();
      await fx.branch(f.project.id, 'release', { 'r.txt': 'r\n' });
      await fx.call('POST', `/projects/${f.project.id}/protected_branches`, { body: { name: 'release' } });
      const mr = await fx.openMr(f, 'release', { token: fx.maintainer.token });
      expect((await fx.merge(f.project.id, mr.iid, { should_remove_source_branch: true })).status).toBe(200);
      await eventually(async () => (await fx.server.app.db.query('SELECT post_merge_done FROM merge_intents WHERE merge_request_id = $1', [mr.id])).rows[0]?.post_merge_done);
      expect((await fx.call('GET', `/projects/${f.project.id}/repository/branches/release`)).status).toBe(200);
    });
  });

  describe('forks', () => {
    it('merges a request from a fork, whose commits the target repository already holds', async () => {
      const f = await fx.project();
      const forker = await fx.server.createUser({ name: 'Fork Owner', email: 'fork@example.com' });
      await fx.call('PUT', `/projects/${f.project.id}`, { body: { visibility: 'internal' } });
      const forked = await gitbeakerClient(fx.server.url, forker.token).Projects.fork(f.project.id);
      const forkId = forked.id as number;
      const head = await fx.branch(forkId, 'from-fork', { 'fork.txt': 'from the fork\n' });
      const mr = await gitbeakerClient(fx.server.url, forker.token).MergeRequests.create(forkId, 'from-fork', 'main', 'From a fork', { targetProjectId: f.project.id });
      const response = await fx.merge(f.project.id, mr.iid, { sha: head });
      expect(response.status).toBe(200);
      const commit = await fx.commitInfo(f.project.id, await fx.tip(f.project.id, 'main'));
      expect(commit.parents[1]).toBe(head);
      expect(commit.author).toBe('Mia Maintainer <mia@example.com>');
      expect(await fx.git(f.project.id, ['show', `${head}:fork.txt`])).toBe('from the fork');
    });
  });
});
