// @vitest-environment jsdom
import type { MergeRequestWidgetData, WidgetApprovalRule, WidgetUser } from '@tributary/contracts/merge-widget';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp, type Route } from '../../../test-support/component';
import { MergeWidget } from '../MergeWidget';
import { MR, PROJECT, sessionRoute, widgetData, widgetProject, widgetRoute } from '../widget-fixture';

// the session's user is root
const user = (username: string, name: string, id: number): WidgetUser => ({ id: `gid://gitlab/User/${id}`, username, name, webUrl: `/${username}`, avatarUrl: null });
const ROOT = user('root', 'Root', 1);
const ADA = user('ada', 'Ada Lovelace', 2);

const rule = (change: Partial<WidgetApprovalRule>): WidgetApprovalRule => ({
  id: 'gid://gitlab/ApprovalMergeRequestRule/1',
  name: 'Backend',
  type: 'REGULAR',
  section: null,
  approved: false,
  approvalsRequired: 2,
  invalid: false,
  allowMergeWhenInvalid: true,
  fallback: false,
  reportType: null,
  approvedBy: { nodes: [] },
  eligibleApprovers: [ROOT, ADA],
  ...change,
});

function needsTwo(change: Partial<MergeRequestWidgetData> = {}): MergeRequestWidgetData {
  return widgetData({
    detailedMergeStatus: 'NOT_APPROVED',
    mergeabilityChecks: [{ identifier: 'NOT_APPROVED', status: 'FAILED' }],
    approved: false,
    approvalsRequired: 2,
    approvalsLeft: 2,
    approvalState: { approvalRulesOverwritten: false, invalidApproversRules: [], suggestedApprovers: { nodes: [] }, rules: [rule({})] },
    userPermissions: { ...widgetData().userPermissions, canApprove: true },
    ...change,
  });
}

async function showSection(data: MergeRequestWidgetData, writes: Route[] = [], project = {}) {
  const network = fakeNetwork([sessionRoute, ...writes, widgetRoute(() => widgetProject(data, project))]);
  renderInApp(<MergeWidget project={PROJECT} mr={MR} />);
  const section = await screen.findByRole('group', { name: 'Approvals' });
  return { section, network };
}

describe("the widget's approvals section", () => {
  it('says approval is optional when no rule asks for one, and offers nothing to expand', async () => {
    const { section } = await showSection(widgetData());
    expect(within(section).getByText('Approval is optional')).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Expand eligible approvers' })).toBeNull();
  });

  it('names the rules still required, lists them with their states, code owners first', async () => {
    const rules = [
      rule({ id: 'r1', name: 'Backend', approvedBy: { nodes: [ADA] } }),
      rule({ id: 'r2', name: '*.rb', type: 'CODE_OWNER', section: 'Ruby', approvalsRequired: 1, approved: true, approvedBy: { nodes: [ADA] } }),
      rule({ id: 'r3', name: 'Security', invalid: true, allowMergeWhenInvalid: false, eligibleApprovers: [] }),
      rule({ id: 'r4', name: 'Docs', invalid: true, allowMergeWhenInvalid: true, approved: true, eligibleApprovers: [] }),
    ];
    const { section } = await showSection(needsTwo({ approvalsLeft: 1, approvedBy: { nodes: [ADA] }, approvalState: { ...needsTwo().approvalState, rules } }));
    expect(within(section).getByText('Requires 1 approval from Backend and Security.')).toBeTruthy();
    expect(within(section).getByText('Approved by')).toBeTruthy();
    await userEvent.click(within(section).getByRole('button', { name: 'Expand eligible approvers' }));
    const rows = within(within(section).getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.querySelector('span')!.textContent)).toEqual(['*.rb', 'Backend', 'Docs', 'Security']);
    expect(within(rows[0]!).getByText('Approved')).toBeTruthy();
    expect(within(rows[1]!).getByText('1 of 2')).toBeTruthy();
    expect(within(rows[1]!).getByText('Pending approval')).toBeTruthy();
    expect(within(rows[2]!).getByText('Auto approved')).toBeTruthy();
    expect(within(rows[3]!).getByText('Action required')).toBeTruthy();
  });

  it('Approve sends the head SHA and refetches; a failure shows the submit error', async () => {
    let fail = false;
    const approve = on('POST', '/api/v4/projects/1/merge_requests/7/approve', () => (fail ? json(500, { message: 'boom' }) : json(201, {})));
    const approvals = on('GET', '/api/v4/projects/1/merge_requests/7/approvals', () => json(200, { require_password_to_approve: false }));
    const { section, network } = await showSection(needsTwo(), [approve, approvals]);
    await userEvent.click(within(section).getByRole('button', { name: 'Approve' }));
    await screen.findByRole('group', { name: 'Approvals' });
    expect(network.sent.filter((request) => request.path.endsWith('/approve'))).toEqual([expect.objectContaining({ body: { sha: widgetData().diffHeadSha } })]);
    fail = true;
    await userEvent.click(within(section).getByRole('button', { name: 'Approve' }));
    expect(await within(section).findByText('An error occurred while submitting your approval.')).toBeTruthy();
  });

  it('says so when the approval data cannot be read', async () => {
    const approvals = on('GET', '/api/v4/projects/1/merge_requests/7/approvals', () => json(500, { message: 'boom' }));
    const { section } = await showSection(needsTwo(), [approvals]);
    await userEvent.click(within(section).getByRole('button', { name: 'Approve' }));
    expect(await within(section).findByText('An error occurred while retrieving approval data for this merge request.')).toBeTruthy();
  });

  it('Revoke shows for who approved and may not approve again', async () => {
    const unapprove = on('POST', '/api/v4/projects/1/merge_requests/7/unapprove', () => json(500, { message: 'boom' }));
    const { section } = await showSection(needsTwo({ approvedBy: { nodes: [ROOT] }, approvalsLeft: 1, userPermissions: { ...widgetData().userPermissions, canApprove: false } }), [unapprove]);
    expect(within(section).getByText('Approved by you')).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Approve' })).toBeNull();
    await userEvent.click(within(section).getByRole('button', { name: 'Revoke approval' }));
    expect(await within(section).findByText('An error occurred while removing your approval.')).toBeTruthy();
  });

  it('asks for the password when the project requires it; a wrong one says so and keeps the modal', async () => {
    const approve = on('POST', '/api/v4/projects/1/merge_requests/7/approve', (request) =>
      (request.body as { approval_password?: string }).approval_password === 'right' ? json(201, {}) : json(401, { message: '401 Unauthorized' }),
    );
    const approvals = on('GET', '/api/v4/projects/1/merge_requests/7/approvals', () => json(200, { require_password_to_approve: true }));
    const { section } = await showSection(needsTwo(), [approve, approvals]);
    await userEvent.click(within(section).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter your password to approve' });
    await userEvent.type(within(dialog).getByLabelText(/Your password/), 'wrong');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText('Approval password is invalid.')).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText(/Your password/));
    await userEvent.type(within(dialog).getByLabelText(/Your password/), 'right');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await screen.findByRole('group', { name: 'Approvals' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("explains to a committer why they can't approve", async () => {
    const { section } = await showSection(needsTwo({ userPermissions: { ...widgetData().userPermissions, canApprove: false }, committers: { nodes: [ROOT] } }), [], { mergeRequestsDisableCommittersApproval: true });
    await userEvent.click(within(section).getByRole('button', { name: "Why can't I approve?" }));
    expect(within(section).getByText("You can't approve because you added one or more commits to this merge request.")).toBeTruthy();
  });

  it("offers 'Assign reviewers' to those who may administer the merge request, with the eligible approvers not yet reviewers", async () => {
    const GRACE = user('grace', 'Grace Hopper', 3);
    const LIN = user('lin', 'Lin Yutang', 4);
    let updated: unknown = null;
    const update = on('PUT', '/api/v4/projects/1/merge_requests/7', (request) => {
      updated = request.body;
      return json(200, { ...MR, reviewers: [{ id: 2, username: 'ada', name: 'Ada Lovelace' }] });
    });
    // Grace is the author: never offered; Lin is already a reviewer
    const rules = [rule({ eligibleApprovers: [ROOT, ADA, GRACE] }), rule({ id: 'r2', name: 'Docs', eligibleApprovers: [LIN, ADA] })];
    const data = needsTwo({ approvalState: { ...needsTwo().approvalState, rules }, userPermissions: { ...needsTwo().userPermissions, adminMergeRequest: true } });
    const network = fakeNetwork([sessionRoute, update, widgetRoute(() => widgetProject(data))]);
    renderInApp(<MergeWidget project={PROJECT} mr={{ ...MR, reviewers: [{ id: 4, username: 'lin', name: 'Lin Yutang' }] } as typeof MR} />);
    const section = await screen.findByRole('group', { name: 'Approvals' });
    await userEvent.click(within(section).getByRole('button', { name: 'Assign reviewers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign reviewers' });
    expect(within(dialog).getAllByRole('checkbox').map((box) => (box as HTMLInputElement).value)).toEqual(['1', '2']);
    const assign = within(dialog).getByRole('button', { name: 'Assign reviewers' });
    expect(assign.hasAttribute('disabled') || assign.getAttribute('aria-disabled') === 'true').toBe(true);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Ada Lovelace/ }));
    await userEvent.click(assign);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // added to the current reviewers, through the merge request update
    expect(updated).toEqual({ reviewer_ids: [4, 2] });
    expect(network.sent.filter((request) => request.method === 'PUT')).toHaveLength(1);
  });

  it("offers no 'Assign reviewers' without the right to administer the merge request, nor when every approver reviews already", async () => {
    const { section } = await showSection(needsTwo());
    expect(within(section).queryByRole('button', { name: 'Assign reviewers' })).toBeNull();
    const everyone = needsTwo({ userPermissions: { ...needsTwo().userPermissions, adminMergeRequest: true } });
    fakeNetwork([sessionRoute, widgetRoute(() => widgetProject(everyone))]);
    const { unmount } = renderInApp(<MergeWidget project={PROJECT} mr={{ ...MR, reviewers: [{ id: 1 }, { id: 2 }] } as typeof MR} />);
    const groups = await screen.findAllByRole('group', { name: 'Approvals' });
    for (const group of groups) expect(within(group).queryByRole('button', { name: 'Assign reviewers' })).toBeNull();
    unmount();
  });

  it('is hidden while there is nothing to merge', async () => {
    fakeNetwork([sessionRoute, widgetRoute(() => widgetProject(widgetData({ commitCount: 0 })))]);
    renderInApp(<MergeWidget project={PROJECT} mr={MR} />);
    await screen.findByRole('status');
    expect(screen.queryByRole('group', { name: 'Approvals' })).toBeNull();
  });
});
