import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startMergingFixtures, type MergeFixture, type MergingFixtures } from '../../../../test-support/merging-fixtures.js';

/**
 * What PUT …/merge guards against: a stale or wrong SHA, closed, draft and conflicting requests,
 * callers without the right to merge, a second merge, and branch names crafted as git options.
 * The merges themselves: merge.int.test.ts.
 */
describe(`merge refusals and guards (${testDatabaseKind()})`, () => {
  let fx: MergingFixtures;

  beforeAll(async () => {
    fx = await startMergingFixtures();
  });
  afterAll(() => fx?.close());

  describe('refusals', () => {
    it('answers 409 when sha is not the head, and merges nothing', async () => {
      const f = await fx.project();
      const head = await fx.branch(f.project.id, 'sha', { 's.txt': 's\n' });
      const mr = await fx.openMr(f, 'sha');
      const before = await fx.tip(f.project.id, 'main');
      const wrong = before;
      expect(await fx.merge(f.project.id, mr.iid, { sha: wrong })).toMatchObject({
        status: 409,
        body: { message: `SHA does not match HEAD of source branch: ${head}` },
      });
      expect(await fx.tip(f.project.id, 'main')).toBe(before);
      expect((await fx.root.MergeRequests.show(f.project.id, mr.iid)).state).toBe('opened');
    });

    it('answers 409 when the source branch was pushed to after the page loaded, and merges nothing', async () => {
      const f = await fx.project();
      const seen = await fx.branch(f.project.id, 'pushed', { 'p.txt': 'p\n' });
      const mr = await fx.openMr(f, 'pushed');
      // a push the server has not recorded as a version yet
      const pushed = await fx.writeCommit(f.project.id, { parent: seen, files: [{ path: 'late.txt', content: 'late\n' }], message: 'late' });
      await fx.setBranch(f.project.id, 'pushed', pushed);
      const before = await fx.tip(f.project.id, 'main');
      expect(await fx.merge(f.project.id, mr.iid, { sha: seen })).toMatchObject({ status: 409, body: { message: `SHA does not match HEAD of source branch: ${pushed}` } });
      expect(await fx.tip(f.project.id, 'main')).toBe(before);
      expect((await fx.server.app.db.query('SELECT 1 FROM merge_intents WHERE merge_request_id = $1', [mr.id])).rowCount).toBe(0);
    });

    it('answers 405 for closed, draft and conflicting requests', async () => {
      const f = await fx.project();
      await fx.branch(f.project.id, 'closed', { 'c.txt': 'c\n' });
      const closed = await fx.openMr(f, 'closed');
      await fx.root.MergeRequests.edit(f.project.id, closed.iid, { stateEvent: 'close' });
      await fx.branch(f.project.id, 'drafty', { 'd.txt': 'd\n' });
      const draft = await fx.openMr(f, 'drafty', { title: 'Draft: not yet' });
      await fx.branch(f.project.id, 'conflicting', { 'README.md': 'mine\n' });
      await fx.branch(f.project.id, 'theirs', { 'README.md': 'theirs\n' });
      await fx.setBranch(f.project.id, 'main', await fx.tip(f.project.id, 'theirs'));
      // Opened after main moved, so no stored check ever said "can be merged" (that case is a
      // failed merge, 422: merge-failure.int.test.ts).
      const conflicting = await fx.openMr(f, 'conflicting');
      const before = await fx.tip(f.project.id, 'main');
      for (const iid of [closed.iid, draft.iid, conflicting.iid]) {
        expect(await fx.merge(f.project.id, iid), `!${iid}`).toMatchObject({ status: 405, body: { message: '405 Method Not Allowed' } });
      }
      expect(await fx.tip(f.project.id, 'main')).toBe(before);
    });

    it('answers 401 to callers who may not merge into the target branch, 404 to those who cannot see it', async () => {
      const f = await fx.project();
      await fx.branch(f.project.id, 'perm', { 'p.txt': 'p\n' });
      const mr = await fx.openMr(f, 'perm');
      const reporter = await fx.member(f.project.id, 20);
      const stranger = await fx.server.createUser();
      // main is protected (Maintainers merge): a Developer may not merge into it
      expect(await fx.merge(f.project.id, mr.iid, {}, fx.developer.token)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
      expect((await fx.merge(f.project.id, mr.iid, {}, reporter.token)).status).toBe(401);
      expect(await fx.merge(f.project.id, mr.iid, {}, stranger.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect((await fx.call('PUT', `/projects/${f.project.id}/merge_requests/${mr.iid}/merge`, { token: null })).status).toBe(401);
      expect((await fx.merge(f.project.id, 9999)).status).toBe(404);
      // a Developer merges once the protection lets Developers merge
      await fx.call('DELETE', `/projects/${f.project.id}/protected_branches/main`);
      await fx.call('POST', `/projects/${f.project.id}/protected_branches`, { body: { name: 'main', push_access_level: 40, merge_access_level: 30 } });
      expect((await fx.merge(f.project.id, mr.iid, {}, fx.developer.token)).status).toBe(200);
    });

    it('lets a Developer merge into an unprotected branch', async () => {
      const f = await fx.project();
      await fx.call('DELETE', `/projects/${f.project.id}/protected_branches/main`);
      await fx.branch(f.project.id, 'unprotected', { 'u.txt': 'u\n' });
      const mr = await fx.openMr(f, 'unprotected');
      expect((await fx.merge(f.project.id, mr.iid, {}, fx.developer.token)).status).toBe(200);
    });

    it('merges a request once: a second merge answers 405', async () => {
      const f = await fx.project();
      await fx.branch(f.project.id, 'twice', { 't.txt': 't\n' });
      const mr = await fx.openMr(f, 'twice');
      expect((await fx.merge(f.project.id, mr.iid)).status).toBe(200);
      const tip = await fx.tip(f.project.id, 'main');
      expect((await fx.merge(f.project.id, mr.iid)).status).toBe(405);
      expect(await fx.tip(f.project.id, 'main')).toBe(tip);
    });
  });

  // Lesson A: refs named like git options (a push can create them) reach git only as full refs or SHAs.
  describe('branch names crafted as options', () => {
    const trap = join(tmpdir(), `tributary-merge-trap-${process.pid}`);
    beforeAll(() => mkdirSync(trap, { recursive: true }));
    afterAll(() => rmSync(trap, { recursive: true, force: true }));

    /** A request whose source and target branches are renamed, in git and in the database, to option-like names. */
    async function hostile(f: MergeFixture, method: string) {
      const source = `--exec=touch\${IFS}${trap}/exec-${method}`;
      const target = method === 'ff' ? '-x' : `--output=${trap}/out-${method}`;
      await fx.setBranch(f.project.id, `tgt-${method}`, await fx.tip(f.project.id, 'main'));
      const head = await fx.branch(f.project.id, `src-${method}`, { [`${method}.txt`]: `${method}\n` }, `tgt-${method}`);
      const mr = await fx.root.MergeRequests.create(f.project.id, `src-${method}`, `tgt-${method}`, `Hostile ${method}`);
      for (const [safe, name] of [[`src-${method}`, source], [`tgt-${method}`, target]] as const) {
        await fx.rawGit(f.project.id, ['update-ref', `refs/heads/${name}`, await fx.tip(f.project.id, safe)]);
        await fx.rawGit(f.project.id, ['update-ref', '-d', `refs/heads/${safe}`]);
      }
      await fx.server.app.db.query('UPDATE merge_requests SET source_branch = $2, target_branch = $3 WHERE id = $1', [mr.id, source, target]);
      return { mr, head, source, target };
    }

    it.each(['merge', 'rebase_merge', 'ff'])('merges with method %s, squashing and deleting the source branch, and runs nothing', async (method) => {
      const f = await fx.project({ merge_method: method });
      const { mr, head, source, target } = await hostile(f, method);
      const response = await fx.merge(f.project.id, mr.iid, { sha: head, squash: true, should_remove_source_branch: true });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({ state: 'merged', source_branch: source, target_branch: target });
      const tip = (await fx.rawGit(f.project.id, ['rev-parse', `refs/heads/${target}`])).toString().trim();
      expect(await fx.treeOf(f.project.id, tip)).toBe(await fx.treeOf(f.project.id, head));
      await eventually(() => fx.rawGit(f.project.id, ['rev-parse', '--verify', `refs/heads/${source}`]).then(() => false, () => true));
      expect(readdirSync(trap)).toEqual([]);
    });

    it('rebases them, and runs nothing', async () => {
      const f = await fx.project();
      const { mr, source, target } = await hostile(f, 'rebase');
      const moved = await fx.writeCommit(f.project.id, { parent: (await fx.rawGit(f.project.id, ['rev-parse', `refs/heads/${target}`])).toString().trim(), files: [{ path: 'up.txt', content: 'up\n' }] });
      await fx.rawGit(f.project.id, ['update-ref', `refs/heads/${target}`, moved]);
      expect((await fx.call('PUT', `/projects/${f.project.id}/merge_requests/${mr.iid}/rebase`, { token: fx.maintainer.token })).status).toBe(202);
      await eventually(async () => !(await fx.root.MergeRequests.show(f.project.id, mr.iid)).rebase_in_progress);
      expect((await fx.root.MergeRequests.show(f.project.id, mr.iid)).merge_error).toBeNull();
      expect((await fx.rawGit(f.project.id, ['rev-parse', `refs/heads/${source}^`])).toString().trim()).toBe(moved);
      expect(readdirSync(trap)).toEqual([]);
    });
  });
});
