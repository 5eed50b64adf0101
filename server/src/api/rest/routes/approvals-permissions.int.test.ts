import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../test-support/merge-request-fixtures.js';

type Call = [method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: Record<string, unknown>];

/**
 * Every approvals endpoint refuses those it is not for, as GitLab does: a stranger to a private
 * project gets 404 (never 403 for what they cannot see), and a Developer gets 403 where only
 * Maintainers may change approval settings and project rules. A refusal changes nothing.
 */
describe(`approvals API permissions (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number };
  let path: string;
  let ruleId: number;
  let mrRuleId: number;
  let stranger: { token: string };
  let developer: { token: string };

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    project = await fx.createProject('approvals-permissions');
    stranger = await fx.server.createUser();
    developer = await fx.member(project.id, 30);
    ruleId = (await fx.root.MergeRequestApprovals.createApprovalRule(project.id, 'Backend', 1, {})).id as number;
    await fx.root.Commits.create(project.id, 'topic', 'Topic', [{ action: 'create', filePath: 'topic.txt', content: 'topic\n' }], { startBranch: 'main' });
    const mr = await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'Needs approval');
    path = `/projects/${project.id}/merge_requests/${mr.iid}`;
    await eventually(async () => !['checking', 'preparing', 'unchecked'].includes((await fx.call('GET', path)).body.detailed_merge_status));
    const created = await fx.call('POST', `${path}/approval_rules`, { body: { name: 'Own', approvals_required: 1 } });
    expect(created.status).toBe(201);
    mrRuleId = created.body.id as number;
  });
  afterAll(() => fx?.close());

  const calls = (): Call[] => [
    ['GET', `/projects/${project.id}/approvals`],
    ['POST', `/projects/${project.id}/approvals`, { reset_approvals_on_push: false }],
    ['GET', `/projects/${project.id}/merge_request_approval_setting`],
    ['PUT', `/projects/${project.id}/merge_request_approval_setting`, { allow_author_approval: true }],
    ['GET', `/projects/${project.id}/approval_rules`],
    ['GET', `/projects/${project.id}/approval_rules/${ruleId}`],
    ['POST', `/projects/${project.id}/approval_rules`, { name: 'x', approvals_required: 1 }],
    ['PUT', `/projects/${project.id}/approval_rules/${ruleId}`, { approvals_required: 2 }],
    ['DELETE', `/projects/${project.id}/approval_rules/${ruleId}`],
    ['GET', `${path}/approvals`],
    ['GET', `${path}/approval_state`],
    ['GET', `${path}/approval_rules`],
    ['GET', `${path}/approval_rules/${mrRuleId}`],
    ['POST', `${path}/approval_rules`, { name: 'y', approvals_required: 1 }],
    ['PUT', `${path}/approval_rules/${mrRuleId}`, { approvals_required: 2 }],
    ['DELETE', `${path}/approval_rules/${mrRuleId}`],
    ['POST', `${path}/approve`],
    ['POST', `${path}/unapprove`],
    ['PUT', `${path}/reset_approvals`],
    ['GET', `${path}/reviewers`],
    ['POST', `${path}/draft_notes/bulk_publish`, { approve: true }],
  ];

  const snapshot = async () => ({
    settings: (await fx.call('GET', `/projects/${project.id}/approvals`)).body,
    projectRules: (await fx.call('GET', `/projects/${project.id}/approval_rules`)).body,
    state: (await fx.call('GET', `${path}/approval_state`)).body,
  });

  it('answers 404 to a stranger on every endpoint of a private project, and changes nothing', async () => {
    const before = await snapshot();
    for (const [method, url, body] of calls()) {
      const response = await fx.call(method, url, { token: stranger.token, ...(body ? { body } : {}) });
      expect({ method, url, status: response.status }).toEqual({ method, url, status: 404 });
      expect(response.body).toMatchObject({ message: expect.stringMatching(/^404 /) });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 403 to a Developer changing the approval settings or the project’s rules, and changes nothing', async () => {
    const before = await snapshot();
    const maintainerOnly = calls().filter(([method, url]) => method !== 'GET' && !url.startsWith(path));
    expect(maintainerOnly).toHaveLength(5);
    for (const [method, url, body] of maintainerOnly) {
      const response = await fx.call(method, url, { token: developer.token, ...(body ? { body } : {}) });
      expect({ method, url, status: response.status }).toEqual({ method, url, status: 403 });
    }
    expect(await snapshot()).toEqual(before);
  });
});
