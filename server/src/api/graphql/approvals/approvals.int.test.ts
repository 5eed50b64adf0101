import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERGE_REQUEST_WIDGET_QUERY } from '@tributary/contracts';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../test-support/merge-request-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';
import { graphql, subscribe, wsClient } from '../testing.js';

const APPROVAL_STATE = /* GraphQL */ `
  query approvals($projectPath: ID!, $iid: String!) {
    project(fullPath: $projectPath) {
      mergeRequestsDisableCommittersApproval
      mergeRequest(iid: $iid) {
        approved
        approvalsLeft
        approvalsRequired
        approvedBy { nodes { username } }
        committers { nodes { username } }
        userPermissions { canApprove }
        approvalState {
          approvalRulesOverwritten
          invalidApproversRules { id name }
          suggestedApprovers { nodes { username } }
          policiesOverridingApprovalSettings { name editPath settings }
          rules {
            id name type section approved approvalsRequired invalid allowMergeWhenInvalid fallback overridden reportType containsHiddenGroups
            approvedBy { nodes { username } }
            commentedBy { nodes { username } }
            eligibleApprovers { username }
            scanResultPolicies { name approvalsRequired reportType }
          }
        }
      }
    }
  }
`;
const APPROVE = 'mutation($projectPath: ID!, $iid: String!, $sha: String) { mergeRequestApprove(input: { projectPath: $projectPath, iid: $iid, sha: $sha }) { errors mergeRequest { approved approvalsLeft } } }';
const UNAPPROVE = 'mutation($projectPath: ID!, $iid: String!) { mergeRequestUnapprove(input: { projectPath: $projectPath, iid: $iid }) { errors mergeRequest { approved approvalsLeft } } }';

/** The approval state in GraphQL (GitLab's field names) and the approve and unapprove mutations. */
describe(`GraphQL approvals (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number; path_with_namespace: string };
  let developers: TestUser[];
  let reporter: TestUser;
  let stranger: TestUser;
  let iid: string;
  const vars = () => ({ projectPath: project.path_with_namespace, iid });
  const state = async (token: string) => (await graphql(fx.server.url, APPROVAL_STATE, vars(), { token })).body;

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    project = await fx.createProject('gql-approvals');
    developers = [await fx.member(project.id, 30), await fx.member(project.id, 30)];
    reporter = await fx.member(project.id, 20);
    stranger = await fx.server.createUser();
    await fx.root.MergeRequestApprovals.createApprovalRule(project.id, 'Backend', 1, { userIds: [developers[0]!.id] });
    await fx.root.MergeRequestApprovals.createApprovalRule(project.id, 'Security', 2, { userIds: [developers[1]!.id] });
    await fx.root.Commits.create(project.id, 'topic', 'Topic', [{ action: 'create', filePath: 'topic.txt', content: 'topic\n' }], { startBranch: 'main' });
    const mr = await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'GraphQL approvals');
    iid = String(mr.iid);
    await eventually(async () => (await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}`)).body.detailed_merge_status === 'not_approved');
  });
  afterAll(() => fx?.close());

  it('answers the approval state with its rules: an invalid rule is auto approved, the other waits', async () => {
    const body = await state(developers[0]!.token);
    expect(body.errors).toBeUndefined();
    const got = body.data.project.mergeRequest;
    expect(body.data.project.mergeRequestsDisableCommittersApproval).toBe(false);
    expect(got).toMatchObject({ approved: false, approvalsLeft: 3, approvalsRequired: 3, approvedBy: { nodes: [] }, committers: { nodes: [{ username: 'root' }] }, userPermissions: { canApprove: true } });
    expect(got.approvalState.approvalRulesOverwritten).toBe(false);
    expect(got.approvalState.policiesOverridingApprovalSettings).toEqual([]);
    expect(got.approvalState.invalidApproversRules).toEqual([{ id: expect.stringMatching(/^gid:\/\/gitlab\/ApprovalProjectRule\/\d+$/), name: 'Security' }]);
    expect(got.approvalState.rules).toMatchObject([
      { name: 'Backend', type: 'REGULAR', approved: false, invalid: false, approvalsRequired: 1, eligibleApprovers: [{ username: developers[0]!.username }], fallback: false },
      { name: 'Security', type: 'REGULAR', approved: true, invalid: true, allowMergeWhenInvalid: true, approvalsRequired: 2 },
    ]);
    expect(got.approvalState.suggestedApprovers.nodes.map((user: { username: string }) => user.username).sort()).toEqual([developers[0]!.username, developers[1]!.username].sort());
    expect((await state(reporter.token)).data.project.mergeRequest.userPermissions.canApprove).toBe(false);
    expect((await state(stranger.token)).data.project).toBeNull();
  });

  it('approves and unapproves with GitLab’s mutations; strangers and Reporters are refused', async () => {
    const approved = await graphql(fx.server.url, APPROVE, vars(), { token: developers[0]!.token });
    // Security cannot be satisfied (one eligible approver for two approvals): GitLab counts it approved, and still left
    expect(approved.body).toEqual({ data: { mergeRequestApprove: { errors: [], mergeRequest: { approved: true, approvalsLeft: 2 } } } });
    const rule = (await state(developers[0]!.token)).data.project.mergeRequest.approvalState.rules[0];
    expect(rule).toMatchObject({ name: 'Backend', approved: true, approvedBy: { nodes: [{ username: developers[0]!.username }] } });

    const refused = await graphql(fx.server.url, APPROVE, vars(), { token: reporter.token });
    expect(refused.body.data.mergeRequestApprove).toBeNull();
    expect(refused.body.errors?.[0]?.message).toMatch(/resource that you are attempting to access does not exist/);
    const hidden = await graphql(fx.server.url, APPROVE, vars(), { token: stranger.token });
    expect(hidden.body.errors?.[0]?.message).toMatch(/resource that you are attempting to access does not exist/);
    const stale = await graphql(fx.server.url, APPROVE, { ...vars(), sha: '0'.repeat(40) }, { token: developers[1]!.token });
    expect(stale.body.data.mergeRequestApprove.errors[0]).toMatch(/^SHA does not match HEAD of source branch/);

    const unapproved = await graphql(fx.server.url, UNAPPROVE, vars(), { token: developers[0]!.token });
    expect(unapproved.body).toEqual({ data: { mergeRequestUnapprove: { errors: [], mergeRequest: { approved: false, approvalsLeft: 3 } } } });
  });

  it('refuses the approve mutation where the project requires the password (it has no password argument), approving nothing', async () => {
    expect((await fx.call('POST', `/projects/${project.id}/approvals`, { body: { require_password_to_approve: true } })).status).toBe(201);
    try {
      const refused = await graphql(fx.server.url, APPROVE, vars(), { token: developers[1]!.token });
      expect(refused.body.data.mergeRequestApprove).toBeNull();
      expect(refused.body.errors?.[0]?.message).toMatch(/resource that you are attempting to access does not exist/);
      expect((await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}/approvals`)).body.approved_by).toEqual([]);
    } finally {
      await fx.call('POST', `/projects/${project.id}/approvals`, { body: { require_password_to_approve: false } });
    }
  });

  it('tells subscribers of mergeRequestApprovalStateUpdated when someone approves', async () => {
    const client = wsClient(fx.server.url, { token: developers[1]!.token });
    try {
      const mr = (await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}`)).body;
      const probe = subscribe<{ mergeRequestApprovalStateUpdated: { id: string } }>(
        client,
        'subscription($issuableId: IssuableID!) { mergeRequestApprovalStateUpdated(issuableId: $issuableId) { ... on MergeRequest { id approved approvalsLeft } } }',
        { issuableId: `gid://gitlab/MergeRequest/${mr.id}` },
      );
      // subscribing is asynchronous: approve and revoke until a message arrives
      await eventually(async () => {
        if (probe.errors.length) throw new Error(`subscription failed: ${JSON.stringify(probe.errors)}`);
        await fx.call('POST', `/projects/${project.id}/merge_requests/${iid}/approve`, { token: developers[0]!.token });
        await fx.call('POST', `/projects/${project.id}/merge_requests/${iid}/unapprove`, { token: developers[0]!.token });
        return probe.messages.length > 0;
      });
      expect(probe.messages[0]!.data?.mergeRequestApprovalStateUpdated.id).toBe(`gid://gitlab/MergeRequest/${mr.id}`);
      probe.stop();
    } finally {
      await client.dispose();
    }
  });

  it('answers the widget query with the approvals section', async () => {
    const response = await graphql(fx.server.url, MERGE_REQUEST_WIDGET_QUERY, vars(), { token: developers[1]!.token });
    expect(response.body.errors).toBeUndefined();
    const got = response.body.data.project.mergeRequest;
    expect(got).toMatchObject({ detailedMergeStatus: 'NOT_APPROVED', approved: false, approvalsRequired: 3, userPermissions: { canApprove: true } });
    expect(got.mergeabilityChecks).toEqual(expect.arrayContaining([{ identifier: 'NOT_APPROVED', status: 'FAILED' }]));
    expect(got.approvalState.rules.map((rule: { name: string }) => rule.name)).toEqual(['Backend', 'Security']);
    // the widget's cached evaluation moves with the approval: approved now, mergeable
    expect((await fx.call('POST', `/projects/${project.id}/merge_requests/${iid}/approve`, { token: developers[0]!.token })).status).toBe(201);
    const after = (await graphql(fx.server.url, MERGE_REQUEST_WIDGET_QUERY, vars(), { token: developers[1]!.token })).body.data.project.mergeRequest;
    expect(after).toMatchObject({ detailedMergeStatus: 'MERGEABLE', approved: true, approvedBy: { nodes: [{ username: developers[0]!.username }] } });
    expect(after.mergeabilityChecks).toEqual(expect.arrayContaining([{ identifier: 'NOT_APPROVED', status: 'SUCCESS' }]));
  });
});
