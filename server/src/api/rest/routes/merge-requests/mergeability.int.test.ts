import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { eventually } from '../../../../test-support/eventually.js';

/**
 * The trial merge (refs/merge-requests/:iid/merge, GET …/merge_ref), rechecks when branches
 * move (with `checking` meanwhile), NEED_REBASE and TITLE_REGEX, and hostile branch names.
 */
describe(`mergeability (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let counter = 0;

  const git = async (projectId: number, args: string[]) => (await fx.rawGit(projectId, args)).toString('utf8').trim();
  const parentsOf = async (projectId: number, sha: string) => (await git(projectId, ['show', '-s', '--format=%P', sha])).split(' ');
  const mergeRef = (projectId: number, iid: number) => git(projectId, ['rev-parse', '--verify', '--quiet', `refs/merge-requests/${iid}/merge`]).catch(() => null);

  async function project(settings: Record<string, unknown> = {}) {
    const created = await fx.createProject(`mergeability-${++counter}`);
    if (Object.keys(settings).length > 0) expect((await fx.call('PUT', `/projects/${created.id}`, { body: settings })).status).toBe(200);
    return created;
  }
  /** A branch with one commit on top of `from` (no push: no event). */
  async function branch(projectId: number, name: string, files: Record<string, string>, from = 'main'): Promise<string> {
    const parent = await fx.tip(projectId, from);
    const sha = await fx.writeCommit(projectId, { parent, files: Object.entries(files).map(([path, content]) => ({ path, content })), message: `Change ${name}` });
    await fx.setBranch(projectId, name, sha);
    return sha;
  }
  /** A commit on main through the API: a real push event, so the refresh job runs. */
  const commitToMain = (projectId: number, path: string, content: string) =>
    fx.root.Commits.create(projectId, 'main', `Main: ${path}`, [{ action: 'create', filePath: path, content }]);
  const show = (projectId: number, iid: number) => fx.call('GET', `/projects/${projectId}/merge_requests/${iid}`).then((response) => response.body);
  const changedEvents = async (mergeRequestId: number) => {
    const { rows } = await fx.server.app.db.query<{ id: number }>(
      `SELECT id FROM domain_events WHERE type = 'merge_request.changed' AND (payload->>'mergeRequestId')::bigint = $1 ORDER BY id`,
      [mergeRequestId],
    );
    return rows.map((row) => row.id);
  };

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
  });
  afterAll(() => fx?.close());

  it('keeps the trial merge at refs/merge-requests/:iid/merge and answers it from …/merge_ref (GET and gitbeaker’s PUT)', async () => {
    const { id } = await project();
    const head = await branch(id, 'feature', { 'feature.txt': 'feature\n' });
    const mr = await fx.root.MergeRequests.create(id, 'feature', 'main', 'Feature');
    expect(mr).toMatchObject({ merge_status: 'can_be_merged', detailed_merge_status: 'mergeable', has_conflicts: false });

    const main = await fx.tip(id, 'main');
    const got = await fx.call('GET', `/projects/${id}/merge_requests/${mr.iid}/merge_ref`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ commit_id: await mergeRef(id, mr.iid) });
    expect(await parentsOf(id, got.body.commit_id)).toEqual([main, head]);
    expect(await git(id, ['show', `${got.body.commit_id}:feature.txt`])).toBe('feature');
    expect((await fx.root.MergeRequests.mergeToDefault(id, mr.iid)) as unknown).toEqual({ commit_id: got.body.commit_id });

    // The target moves without any event: the merge ref is outdated, and GET rebuilds it at once.
    const moved = await fx.writeCommit(id, { parent: main, files: [{ path: 'other.txt', content: 'other\n' }] });
    await fx.setBranch(id, 'main', moved);
    const again = await fx.call('GET', `/projects/${id}/merge_requests/${mr.iid}/merge_ref`);
    expect(await parentsOf(id, again.body.commit_id)).toEqual([moved, head]);
    expect(await mergeRef(id, mr.iid)).toBe(again.body.commit_id);
    expect(await fx.root.MergeRequests.show(id, mr.iid, { includeDivergedCommitsCount: true })).toMatchObject({ merge_status: 'can_be_merged', diverged_commits_count: 1 });
    // Unchanged branches: the same commit, nothing rebuilt.
    expect((await fx.call('GET', `/projects/${id}/merge_requests/${mr.iid}/merge_ref`)).body).toEqual(again.body);
  });

  it('answers merge_ref with 404 to strangers, anonymous callers and Guests of a private project', async () => {
    const { id } = await project();
    await branch(id, 'hidden', { 'hidden.txt': 'hidden\n' });
    const mr = await fx.root.MergeRequests.create(id, 'hidden', 'main', 'Hidden');
    const stranger = await fx.server.createUser();
    const guest = await fx.member(id, 10);
    for (const token of [stranger.token, guest.token, null]) {
      const response = await fx.call('GET', `/projects/${id}/merge_requests/${mr.iid}/merge_ref`, { token });
      expect(response.status).toBe(404);
      expect(response.raw.toString()).not.toContain(await fx.tip(id, 'hidden'));
    }
  });

  it('shows checking while a push is rechecked, then the conflict, and says so to the page each time', async () => {
    const { id } = await project();
    await branch(id, 'topic', { 'shared.txt': 'topic\n' });
    const mr = await fx.root.MergeRequests.create(id, 'topic', 'main', 'Topic');
    expect(await mergeRef(id, mr.iid)).not.toBeNull();
    const eventsBefore = (await changedEvents(mr.id)).length;

    // Another process holds the trial merge (its lease): the recheck after the push waits.
    await fx.server.app.db.query(`UPDATE merge_requests SET merge_check_lease_until = now() + interval '1 minute' WHERE id = $1`, [mr.id]);
    await commitToMain(id, 'shared.txt', 'main\n');
    const checking = await eventually(async () => {
      const current = await show(id, mr.iid);
      return current.merge_status === 'checking' ? current : null;
    });
    expect(checking).toMatchObject({ detailed_merge_status: 'checking', has_conflicts: false });
    await fx.server.app.db.query('UPDATE merge_requests SET merge_check_lease_until = NULL WHERE id = $1', [mr.id]);

    const conflicted = await eventually(async () => {
      const current = await show(id, mr.iid);
      return current.merge_status === 'cannot_be_merged' ? current : null;
    });
    expect(conflicted).toMatchObject({ detailed_merge_status: 'conflict', has_conflicts: true });
    const refused = await fx.call('GET', `/projects/${id}/merge_requests/${mr.iid}/merge_ref`);
    expect(refused).toMatchObject({ status: 400, body: { message: 'Merge request is not mergeable' } });
    expect(await mergeRef(id, mr.iid)).toBeNull();
    // `checking`, then the conflict: both announced for the widget's live updates.
    expect((await changedEvents(mr.id)).length).toBeGreaterThanOrEqual(eventsBefore + 2);

    // Resolved on the source branch (a push adding what main added): mergeable again, with a new merge ref.
    await fx.root.Commits.create(id, 'topic', 'Topic: take main', [{ action: 'update', filePath: 'shared.txt', content: 'main\n' }]);
    const resolved = await eventually(async () => {
      const current = await show(id, mr.iid);
      return current.merge_status === 'can_be_merged' ? current : null;
    });
    expect(resolved).toMatchObject({ detailed_merge_status: 'mergeable', has_conflicts: false });
    expect(await mergeRef(id, mr.iid)).not.toBeNull();
  });

  it('needs a rebase in fast-forward and semi-linear projects once the target moves on', async () => {
    const { id } = await project({ merge_method: 'ff' });
    await branch(id, 'ff-feature', { 'ff.txt': 'ff\n' });
    const mr = await fx.root.MergeRequests.create(id, 'ff-feature', 'main', 'Fast-forward');
    expect(mr.detailed_merge_status).toBe('mergeable');
    expect(mr).not.toHaveProperty('diverged_commits_count'); // only when asked for, as GitLab

    await commitToMain(id, 'unrelated.txt', 'main moved\n');
    const behind = await eventually(async () => {
      const current = await fx.root.MergeRequests.show(id, mr.iid, { includeDivergedCommitsCount: true });
      // gitbeaker's type for the status lacks GitLab's need_rebase
      return (current.detailed_merge_status as string) === 'need_rebase' ? current : null;
    });
    expect(behind).toMatchObject({ merge_status: 'can_be_merged', has_conflicts: false, diverged_commits_count: 1 });

    await fx.root.Projects.edit(id, { mergeMethod: 'rebase_merge' });
    expect((await show(id, mr.iid)).detailed_merge_status).toBe('need_rebase');
    await fx.root.Projects.edit(id, { mergeMethod: 'merge' });
    expect((await show(id, mr.iid)).detailed_merge_status).toBe('mergeable');
    await fx.root.Projects.edit(id, { mergeMethod: 'ff' });

    // Rebased onto main (then pushed to): the head contains the target, nothing to rebase.
    await branch(id, 'ff-feature', { 'ff.txt': 'ff\n' });
    const pushed = await fx.root.Commits.create(id, 'ff-feature', 'Feature: one more', [{ action: 'create', filePath: 'more.txt', content: 'more\n' }]);
    const current = await eventually(async () => {
      const shown = await fx.root.MergeRequests.show(id, mr.iid, { includeDivergedCommitsCount: true });
      return shown.sha === pushed.id && shown.detailed_merge_status === 'mergeable' ? shown : null;
    });
    expect(current).toMatchObject({ diverged_commits_count: 0 });
  });

  it('blocks titles that do not match the project’s pattern (TITLE_REGEX), drafts aside', async () => {
    const { id } = await project({ merge_request_title_regex: '^(feat|fix): ', merge_request_title_regex_description: 'Start with feat: or fix:' });
    await branch(id, 'titled', { 'titled.txt': 't\n' });
    const mr = await fx.root.MergeRequests.create(id, 'titled', 'main', 'Add the thing');
    expect(mr.detailed_merge_status).toBe('title_regex');

    expect((await fx.root.MergeRequests.edit(id, mr.iid, { title: 'feat: add the thing' })).detailed_merge_status).toBe('mergeable');
    const draft = await fx.root.MergeRequests.edit(id, mr.iid, { title: 'Draft: feat: add the thing' });
    expect(draft.detailed_merge_status).toBe('draft_status');
    // Every check is reported: the draft prefix is not held against the title.
    const { mergeability, mergeRequestsRepository } = fx.server.app.services;
    const row = (await mergeRequestsRepository.findById(mr.id))!;
    const evaluation = (await mergeability.evaluateMany([row])).get(mr.id)!;
    expect(evaluation.detailedMergeStatus).toBe('DRAFT_STATUS');
    expect(evaluation.checks).toEqual(
      expect.arrayContaining([
        { identifier: 'DRAFT_STATUS', status: 'FAILED' },
        { identifier: 'TITLE_REGEX', status: 'SUCCESS' },
      ]),
    );

    expect((await fx.root.MergeRequests.edit(id, mr.iid, { title: 'No prefix' })).detailed_merge_status).toBe('title_regex');
    await fx.call('PUT', `/projects/${id}`, { body: { merge_request_title_regex: '', merge_request_title_regex_description: '' } });
    expect((await show(id, mr.iid)).detailed_merge_status).toBe('mergeable');
  });

  describe('branch names crafted as options', () => {
    let pwned: string;
    beforeAll(() => {
      pwned = mkdtempSync(join(tmpdir(), 'tributary-pwned-'));
    });
    afterAll(() => rmSync(pwned, { recursive: true, force: true }));

    it('are refused as merge request branches, and never reach git as options when they exist', async () => {
      const { id } = await project();
      const head = await branch(id, 'plain', { 'plain.txt': 'plain\n' });
      const hostile = [`--exec=touch\${IFS}${pwned}/exec`, `--output=${pwned}/pwned`] as const;
      // Created straight in the bare repository, as a push through receive-pack could, one
      // commit ahead of `plain` and of main (so the trial merge has something new to do).
      const ahead = await fx.writeCommit(id, { parent: head, files: [{ path: 'ahead.txt', content: 'ahead\n' }] });
      const mainAhead = await fx.writeCommit(id, { parent: await fx.tip(id, 'main'), files: [{ path: 'main-ahead.txt', content: 'm\n' }] });
      await fx.setBranch(id, hostile[0], ahead);
      await fx.setBranch(id, hostile[1], mainAhead);
      for (const name of hostile) {
        const refused = await fx.call('POST', `/projects/${id}/merge_requests`, { body: { source_branch: name, target_branch: 'main', title: 'Hostile' } });
        expect(refused.status).toBe(400);
      }

      // A request whose branches are such names (rows written as an import could): the trial
      // merge reads them as refs/heads/<name>, and git never sees an option.
      const mr = await fx.root.MergeRequests.create(id, 'plain', 'main', 'Plain');
      await fx.server.app.db.query('UPDATE merge_requests SET source_branch = $2 WHERE id = $1', [mr.id, hostile[0]]);
      const merged = await fx.call('GET', `/projects/${id}/merge_requests/${mr.iid}/merge_ref`);
      expect(merged.status).toBe(200);
      expect(await parentsOf(id, merged.body.commit_id)).toEqual([await fx.tip(id, 'main'), head]);
      expect(await git(id, ['log', '-1', '--format=%s', merged.body.commit_id])).toBe(`Merge branch '${hostile[0]}' into 'main'`);
      await fx.server.app.db.query('UPDATE merge_requests SET target_branch = $2 WHERE id = $1', [mr.id, hostile[1]]);
      const retargeted = await fx.call('GET', `/projects/${id}/merge_requests/${mr.iid}/merge_ref`);
      expect(await parentsOf(id, retargeted.body.commit_id)).toEqual([mainAhead, head]);
      expect(readdirSync(pwned)).toEqual([]);
    });
  });
});
