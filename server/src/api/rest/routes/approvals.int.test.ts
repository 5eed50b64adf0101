import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../test-support/merge-request-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../test-support/server.js';

/**
 * The approvals API as GitLab's clients use it: rules, approve (sha, password), unapprove,
 * the state, NOT_APPROVED refusing the merge, who may approve, settings and their locks,
 * reviewers' states and REQUESTED_CHANGES.
 */
describe(`approvals API (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let counter = 0;
  let stranger: TestUser;

  /** A private project with developers, a rule naming the first two, and a merge request by root. */
  async function setup(options: { rule?: boolean; approvals?: number } = {}) {
    const project = await fx.createProject(`approvals-${++counter}`);
    const developers = [await fx.member(project.id, 30), await fx.member(project.id, 30), await fx.member(project.id, 30)];
    const guest = await fx.member(project.id, 10);
    const reporter = await fx.member(project.id, 20);
    if (options.rule !== false) {
      await fx.root.MergeRequestApprovals.createApprovalRule(project.id, 'Backend', options.approvals ?? 1, { userIds: [developers[0]!.id, developers[1]!.id] });
    }
    await fx.root.Commits.create(project.id, 'topic', 'Topic', [{ action: 'create', filePath: 'topic.txt', content: 'topic\n' }], { startBranch: 'main' });
    const mr = await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'Needs approval');
    await eventually(async () => !['checking', 'preparing', 'unchecked'].includes((await fx.call('GET', `/projects/${project.id}/merge_requests/${mr.iid}`)).body.detailed_merge_status));
    const path = `/projects/${project.id}/merge_requests/${mr.iid}`;
    return { project, developers, guest, reporter, mr, path, head: (await fx.root.MergeRequests.show(project.id, mr.iid)).sha as string };
  }
  const systemNotes = async (path: string) => ((await fx.call('GET', `${path}/notes?sort=asc`)).body as Array<{ body: string; system: boolean }>).filter((note) => note.system).map((note) => note.body);

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    stranger = await fx.server.createUser();
  });
  afterAll(() => fx?.close());

  it('copies the project rule to a new merge request, refuses the merge until approved, then lets it through', async () => {
    const { project, developers, mr, path, head } = await setup();
    const rules = await fx.root.MergeRequestApprovals.allApprovalRules(project.id, { mergerequestIId: mr.iid });
    expect(rules).toMatchObject([{ name: 'Backend', approvals_required: 1, rule_type: 'regular', users: [{ id: developers[0]!.id }, { id: developers[1]!.id }] }]);

    const before = await fx.root.MergeRequestApprovals.showConfiguration(project.id, { mergerequestIId: mr.iid });
    expect(before).toMatchObject({ approved: false, approvals_required: 1, approvals_left: 1, approved_by: [], user_can_approve: false });
    expect((await fx.call('GET', path)).body.detailed_merge_status).toBe('not_approved');
    expect(await fx.call('PUT', `${path}/merge`, { body: { sha: head } })).toMatchObject({ status: 405 });

    const api = gitbeakerClient(fx.server.url, developers[0]!.token);
    await api.MergeRequestApprovals.approve(project.id, mr.iid, { sha: head });
    const after = (await fx.call('GET', `${path}/approvals`)).body;
    expect(after).toMatchObject({ approved: true, approvals_left: 0, approved_by: [{ user: { id: developers[0]!.id, username: developers[0]!.username } }] });
    const state = await fx.root.MergeRequestApprovals.showApprovalState(project.id, mr.iid);
    expect(state).toMatchObject({ approval_rules_overwritten: false, rules: [{ name: 'Backend', approved: true, approved_by: [{ id: developers[0]!.id }] }] });
    expect(await systemNotes(path)).toContain('approved this merge request');
    expect((await fx.call('GET', path)).body.detailed_merge_status).toBe('mergeable');
    expect((await fx.call('PUT', `${path}/merge`, { body: { sha: head } })).status).toBe(200);
  });

  it('answers 409 for a stale sha, 304 for a second approval and for unapproving twice, and writes the notes', async () => {
    const { developers, path, head } = await setup();
    const token = developers[0]!.token;
    const stale = await fx.call('POST', `${path}/approve`, { token, body: { sha: '0'.repeat(40) } });
    expect(stale).toMatchObject({ status: 409, body: { message: `SHA does not match HEAD of source branch: ${head}` } });
    expect((await fx.call('POST', `${path}/approve`, { token, body: { sha: head } })).status).toBe(201);
    expect((await fx.call('POST', `${path}/approve`, { token })).status).toBe(304);
    expect(await fx.call('POST', `${path}/unapprove`, { token })).toMatchObject({ status: 201, body: { approved: false, approvals_left: 1 } });
    expect((await fx.call('POST', `${path}/unapprove`, { token })).status).toBe(304);
    expect(await systemNotes(path)).toEqual(expect.arrayContaining(['approved this merge request', 'unapproved this merge request']));
  });

  it('refuses strangers (404), Guests of a private project (404), Reporters (401) and the author (401); an eligible developer outside the rule may approve', async () => {
    const { developers, guest, reporter, path } = await setup();
    expect((await fx.call('POST', `${path}/approve`, { token: stranger.token })).status).toBe(404);
    expect((await fx.call('GET', `${path}/approvals`, { token: stranger.token })).status).toBe(404);
    expect((await fx.call('POST', `${path}/approve`, { token: guest.token })).status).toBe(404);
    expect(await fx.call('POST', `${path}/approve`, { token: reporter.token })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await fx.call('POST', `${path}/approve`, { token: null })).status).toBe(401);
    // root is the author: GitLab's default forbids self-approval
    expect((await fx.call('POST', `${path}/approve`)).status).toBe(401);
    expect((await fx.call('GET', `${path}/approvals`)).body.approved_by).toEqual([]);
    // developers[2] is not named by the rule: the approval is recorded but does not satisfy it
    expect(await fx.call('POST', `${path}/approve`, { token: developers[2]!.token })).toMatchObject({ status: 201, body: { approved: false, approvals_left: 1 } });
    // reset_approvals is not for developers
    expect((await fx.call('PUT', `${path}/reset_approvals`, { token: developers[2]!.token })).status).toBe(401);
    expect((await fx.call('PUT', `${path}/reset_approvals`)).status).toBe(202);
    expect((await fx.call('GET', `${path}/approvals`)).body.approved_by).toEqual([]);
  });

  it('asks for the password when the project requires it', async () => {
    const { project, developers, path } = await setup();
    expect(await fx.call('POST', `/projects/${project.id}/approvals`, { body: { require_password_to_approve: true } })).toMatchObject({ status: 201, body: { require_password_to_approve: true } });
    const token = developers[0]!.token;
    expect((await fx.call('POST', `${path}/approve`, { token })).status).toBe(401);
    expect((await fx.call('POST', `${path}/approve`, { token, body: { approval_password: 'wrong password' } })).status).toBe(401);
    expect((await fx.call('POST', `${path}/approve`, { token, body: { approval_password: developers[0]!.password } })).status).toBe(201);
  });

  it('asks a review’s Approve verdict for the password too, before anything of the review is published', async () => {
    const { project, developers, path } = await setup();
    expect((await fx.call('POST', `/projects/${project.id}/approvals`, { body: { require_password_to_approve: true } })).status).toBe(201);
    const [developer] = developers;
    const draft = await fx.call('POST', `${path}/draft_notes`, { token: developer!.token, body: { note: 'Looks right.' } });
    expect(draft.status).toBe(201);
    const drafts = async () => ((await fx.call('GET', `${path}/draft_notes`, { token: developer!.token })).body as unknown[]).length;
    const approvedBy = async () => ((await fx.call('GET', `${path}/approvals`)).body.approved_by as unknown[]).length;

    for (const body of [{ approve: true }, { approve: true, approval_password: 'wrong password' }, { reviewer_state: 'approved', approval_password: '' }]) {
      expect((await fx.call('POST', `${path}/draft_notes/bulk_publish`, { token: developer!.token, body })).status).toBe(401);
    }
    // nothing happened: the draft is still a draft, nobody approved
    expect(await drafts()).toBe(1);
    expect(await approvedBy()).toBe(0);

    expect((await fx.call('POST', `${path}/draft_notes/bulk_publish`, { token: developer!.token, body: { approve: true, approval_password: developer!.password } })).status).toBe(204);
    expect(await drafts()).toBe(0);
    expect(await approvedBy()).toBe(1);
    // the verdicts that do not approve ask for no password
    expect((await fx.call('POST', `${path}/draft_notes/bulk_publish`, { token: developers[1]!.token, body: { reviewer_state: 'reviewed' } })).status).not.toBe(401);
  });

  it('lets committers approve unless the project prevents it', async () => {
    const { project, developers, path } = await setup({ rule: false });
    // developers[0] pushes a commit to the merge request
    const api = gitbeakerClient(fx.server.url, developers[0]!.token);
    await api.Commits.create(project.id, 'topic', 'More', [{ action: 'create', filePath: 'more.txt', content: 'more\n' }]);
    await fx.call('POST', `/projects/${project.id}/approvals`, { body: { merge_requests_disable_committers_approval: true, approvals_before_merge: 1 } });
    await eventually(async () => (await fx.call('GET', path)).body.sha === (await fx.tip(project.id, 'topic')));
    expect(await fx.call('GET', `${path}/approvals`, { token: developers[0]!.token })).toMatchObject({ body: { user_can_approve: false, approvals_required: 1 } });
    expect((await fx.call('POST', `${path}/approve`, { token: developers[0]!.token })).status).toBe(401);
    expect((await fx.call('POST', `${path}/approve`, { token: developers[1]!.token })).status).toBe(201);
    expect((await fx.call('GET', `${path}/approvals`)).body).toMatchObject({ approved: true, approvals_left: 0 });
  });

  it('manages project rules like GitLab (gitbeaker), with clear 4xx for bad input', async () => {
    const { project, developers } = await setup({ rule: false });
    const created = await fx.root.MergeRequestApprovals.createApprovalRule(project.id, 'Coverage-Check', 1, { userIds: [developers[0]!.id] });
    expect(created).toMatchObject({ name: 'Coverage-Check', rule_type: 'report_approver', report_type: 'code_coverage', eligible_approvers: [{ id: developers[0]!.id }] });
    const edited = await fx.root.MergeRequestApprovals.editApprovalRule(project.id, created.id, 'Coverage-Check', 2, { userIds: [developers[0]!.id, developers[1]!.id] });
    expect(edited).toMatchObject({ approvals_required: 2, users: [{ id: developers[0]!.id }, { id: developers[1]!.id }] });
    expect(await fx.call('POST', `/projects/${project.id}/approval_rules`, { body: { name: 'Coverage-Check', approvals_required: 1 } })).toMatchObject({ status: 400, body: { message: { name: ['has already been taken'] } } });
    expect((await fx.call('POST', `/projects/${project.id}/approval_rules`, { body: { approvals_required: 1 } })).status).toBe(400);
    expect((await fx.call('POST', `/projects/${project.id}/approval_rules`, { body: { name: 'x', approvals_required: -1 } })).status).toBe(400);
    expect((await fx.call('POST', `/projects/${project.id}/approval_rules`, { token: developers[0]!.token, body: { name: 'x', approvals_required: 1 } })).status).toBe(403);
    expect((await fx.call('POST', `/projects/${project.id}/approval_rules`, { token: stranger.token, body: { name: 'x', approvals_required: 1 } })).status).toBe(404);
    expect((await fx.call('GET', `/projects/${project.id}/approval_rules`)).body).toHaveLength(1);
    await fx.root.MergeRequestApprovals.removeApprovalRule(project.id, created.id);
    expect((await fx.call('GET', `/projects/${project.id}/approval_rules/${created.id}`)).status).toBe(404);
  });

  it('overrides rules per merge request when allowed, and not when the project disables it', async () => {
    const { project, developers, mr, path } = await setup();
    const created = await fx.root.MergeRequestApprovals.createApprovalRule(project.id, 'Docs', 1, { mergerequestIId: mr.iid, userIds: [developers[2]!.id] });
    expect(created).toMatchObject({ name: 'Docs', users: [{ id: developers[2]!.id }] });
    const state = (await fx.call('GET', `${path}/approval_state`)).body;
    expect(state.approval_rules_overwritten).toBe(true);
    expect(state.rules.map((rule: { name: string }) => rule.name)).toEqual(['Backend', 'Docs']);
    expect((await fx.call('GET', `${path}/approvals`)).body.approvals_required).toBe(2);
    await fx.call('POST', `/projects/${project.id}/approvals`, { body: { disable_overriding_approvers_per_merge_request: true } });
    expect((await fx.call('POST', `${path}/approval_rules`, { body: { name: 'Other', approvals_required: 1 } })).status).toBe(403);
    // the project's rules decide again
    expect((await fx.call('GET', `${path}/approvals`)).body.approvals_required).toBe(1);
  });

  it('locks settings from the group and the instance, and says where the lock comes from', async () => {
    const group = (await fx.call('POST', '/groups', { body: { name: `locks-${++counter}`, path: `locks-${counter}` } })).body;
    const project = (await fx.call('POST', '/projects', { body: { name: 'locked', namespace_id: group.id } })).body;
    expect(await fx.call('PUT', `/groups/${group.id}/merge_request_approval_setting`, { body: { require_password_to_approve: true } })).toMatchObject({
      status: 200,
      body: { require_password_to_approve: { value: true, locked: false, inherited_from: null } },
    });
    const own = await fx.call('PUT', `/projects/${project.id}/merge_request_approval_setting`, { body: { require_password_to_approve: false, allow_author_approval: true } });
    // locked_by_group_id (beyond GitLab) names the locking group for the settings page's sentence
    expect(own.body).toMatchObject({ require_password_to_approve: { value: true, locked: true, inherited_from: 'group', locked_by_group_id: group.id }, allow_author_approval: { value: true, locked: false } });
    expect(own.body.allow_author_approval).not.toHaveProperty('locked_by_group_id');
    expect((await fx.call('GET', `/projects/${project.id}/approvals`)).body).toMatchObject({ require_password_to_approve: true, merge_requests_author_approval: true });

    const developer = await fx.member(project.id, 30);
    expect((await fx.call('PUT', '/application/settings', { token: developer.token, body: { prevent_merge_requests_author_approval: true } })).status).toBe(403);
    try {
      expect(await fx.call('PUT', '/application/settings', { body: { prevent_merge_requests_author_approval: true } })).toMatchObject({ status: 200, body: { prevent_merge_requests_author_approval: true } });
      expect((await fx.call('GET', `/projects/${project.id}/merge_request_approval_setting`)).body.allow_author_approval).toEqual({ value: false, locked: true, inherited_from: 'instance' });
      expect((await fx.call('GET', `/groups/${group.id}/merge_request_approval_setting`)).body.allow_author_approval).toEqual({ value: false, locked: true, inherited_from: 'instance' });
    } finally {
      await fx.call('PUT', '/application/settings', { body: { prevent_merge_requests_author_approval: false } });
    }
    expect((await fx.call('GET', `/groups/${group.id}/merge_request_approval_setting`, { token: developer.token })).status).toBe(404);
  });

  it('keeps reviewers’ states: approving sets approved, requested changes block the merge until that reviewer approves', async () => {
    const { project, developers, mr, path, head } = await setup({ rule: false });
    await fx.root.MergeRequests.edit(project.id, mr.iid, { reviewerIds: [developers[0]!.id, developers[1]!.id] });
    expect((await fx.call('GET', `${path}/reviewers`)).body).toMatchObject([{ user: { id: developers[0]!.id }, state: 'unreviewed' }, { user: { id: developers[1]!.id }, state: 'unreviewed' }]);
    expect((await fx.call('POST', `${path}/draft_notes/bulk_publish`, { token: developers[0]!.token, body: { reviewer_state: 'requested_changes' } })).status).toBe(204);
    expect((await fx.call('GET', path)).body.detailed_merge_status).toBe('requested_changes');
    expect((await fx.call('PUT', `${path}/merge`, { body: { sha: head } })).status).toBe(405);
    expect(await systemNotes(path)).toContain('requested changes');
    // a stranger to the review may not request changes
    expect((await fx.call('POST', `${path}/draft_notes/bulk_publish`, { token: developers[2]!.token, body: { reviewer_state: 'requested_changes' } })).status).toBe(403);
    await fx.call('POST', `${path}/approve`, { token: developers[0]!.token });
    expect((await fx.call('GET', `${path}/reviewers`)).body).toMatchObject([{ state: 'approved' }, { state: 'unreviewed' }]);
    expect((await fx.call('GET', path)).body.detailed_merge_status).toBe('mergeable');
  });
});
