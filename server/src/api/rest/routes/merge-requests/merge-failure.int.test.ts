import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { eventually } from '../../../../test-support/eventually.js';

/**
 * A merge that fails for real: the stored checks said "can be merged", then the target branch
 * moved to a conflicting commit with no push event (straight in the bare repository, so
 * nothing rechecked). GitLab's mergeable? trusts the stored verdict, the merge itself meets
 * the conflict: 422 'Branch cannot be merged', merge_error set, nothing merged.
 */
describe(`a merge that fails (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
  });
  afterAll(() => fx?.close());

  it('answers 422 with merge_error when the target moved to a conflicting commit behind the checks’ back', async () => {
    const project = await fx.createProject('fails-for-real');
    const base = await fx.tip(project.id, 'main');
    const head = await fx.writeCommit(project.id, { parent: base, files: [{ path: 'README.md', content: 'the branch wrote this\n' }], message: 'Branch change' });
    await fx.setBranch(project.id, 'feature', head);
    const mr = await fx.root.MergeRequests.create(project.id, 'feature', 'main', 'Will fail');
    // The background check has run and stored its verdict for this head.
    await eventually(async () => (await fx.call('GET', `/projects/${project.id}/merge_requests/${mr.iid}`)).body.detailed_merge_status === 'mergeable');

    const moved = await fx.writeCommit(project.id, { parent: base, files: [{ path: 'README.md', content: 'main wrote this\n' }], message: 'Main change' });
    await fx.setBranch(project.id, 'main', moved);
    // Still what the checks stored: nothing told the server the target moved.
    expect((await fx.call('GET', `/projects/${project.id}/merge_requests/${mr.iid}`)).body.detailed_merge_status).toBe('mergeable');

    const response = await fx.call('PUT', `/projects/${project.id}/merge_requests/${mr.iid}/merge`, { body: { sha: head } });
    expect(response).toMatchObject({ status: 422, body: { message: 'Branch cannot be merged' } });
    expect(await fx.tip(project.id, 'main')).toBe(moved);
    const after = (await fx.call('GET', `/projects/${project.id}/merge_requests/${mr.iid}`)).body;
    expect(after).toMatchObject({ state: 'opened', merge_error: 'Merge request is not mergeable', merge_commit_sha: null, merged_by: null });
    // The failed merge brought the stored check up to date: the page now says why.
    expect(after.detailed_merge_status).toBe('conflict');
    expect((await fx.server.app.db.query('SELECT 1 FROM merge_intents WHERE merge_request_id = $1', [mr.id])).rowCount).toBe(0);
    // Asked again, the request is known not to be mergeable: a refusal, as for any conflict.
    expect((await fx.call('PUT', `/projects/${project.id}/merge_requests/${mr.iid}/merge`, { body: { sha: head } })).status).toBe(405);
  });
});
