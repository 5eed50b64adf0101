import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../../../test-support/rest-fixtures.js';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../test-support/merge-request-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';

/**
 * Approving under concurrency, with real concurrent requests: twenty approvers at once leave
 * exactly twenty approvals, twenty notes and one correct state; one user approving twice at
 * once is one approval (the other call answers 304).
 */
describe(`concurrent approvals (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
  });
  afterAll(() => fx?.close());

  it('twenty approvers at once: twenty approvals and one correct state', async () => {
    const project = await fx.createProject('concurrent-approvals');
    const approvers: TestUser[] = [];
    for (let i = 0; i < 21; i++) approvers.push(await fx.member(project.id, 30));
    await fx.root.MergeRequestApprovals.createApprovalRule(project.id, 'Everyone', 20, { ruleType: 'any_approver' } as never);
    await fx.root.Commits.create(project.id, 'topic', 'Topic', [{ action: 'create', filePath: 'topic.txt', content: 'topic\n' }], { startBranch: 'main' });
    const mr = await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'Many approvals');
    const path = `/projects/${project.id}/merge_requests/${mr.iid}`;
    await eventually(async () => (await fx.call('GET', path)).body.detailed_merge_status === 'not_approved');

    const twenty = approvers.slice(0, 20);
    const responses = await Promise.all(twenty.map((user) => fx.call('POST', `${path}/approve`, { token: user.token })));
    expect(responses.map((response) => response.status)).toEqual(twenty.map(() => 201));
    expect(await countRows(fx.server, 'merge_request_approvals', 'merge_request_id = $1', [mr.id])).toBe(20);

    const state = (await fx.call('GET', `${path}/approvals`)).body;
    expect(state).toMatchObject({ approved: true, approvals_required: 20, approvals_left: 0 });
    expect(new Set(state.approved_by.map((entry: { user: { id: number } }) => entry.user.id))).toEqual(new Set(twenty.map((user) => user.id)));
    expect((await fx.call('GET', path)).body.detailed_merge_status).toBe('mergeable');
    const notes = ((await fx.call('GET', `${path}/notes?per_page=100`)).body as Array<{ body: string }>).filter((note) => note.body === 'approved this merge request');
    expect(notes).toHaveLength(20);

    // the same user twice at once: one approval, one 304
    const last = approvers[20]!;
    const twice = await Promise.all([0, 1].map(() => fx.call('POST', `${path}/approve`, { token: last.token })));
    expect(twice.map((response) => response.status).sort()).toEqual([201, 304]);
    expect(await countRows(fx.server, 'merge_request_approvals', 'merge_request_id = $1', [mr.id])).toBe(21);
  });
});
