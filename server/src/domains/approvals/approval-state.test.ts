import { describe, expect, it } from 'vitest';
import { approvalEligibility, cannotApproveExplanation, COMMITTER_CANNOT_APPROVE, evaluateApprovalState, evaluateRule, type ApprovalFacts, type RuleFacts } from './approval-state.js';

// Users: 1 author, 2 committer, 3..6 developers, 9 a reporter (not eligible).
const facts = (overrides: Partial<ApprovalFacts> = {}): ApprovalFacts => ({
  rules: [],
  eligibleIds: new Set([1, 2, 3, 4, 5, 6]),
  approverIds: [],
  authorId: 1,
  committerIds: new Set([2]),
  allowAuthorApproval: false,
  allowCommitterApproval: true,
  ...overrides,
});
const rule = (overrides: Partial<RuleFacts> = {}): RuleFacts => ({
  id: 1,
  name: 'Backend',
  ruleType: 'regular',
  reportType: null,
  section: null,
  approvalsRequired: 1,
  candidateIds: [3, 4],
  containsHiddenGroups: false,
  allowMergeWhenInvalid: true,
  ...overrides,
});

describe('one rule', () => {
  it.each([
    // name, rule, facts, expected [approvers, approvedBy, left, approved, invalid, state]
    ['user rule, nobody approved', rule(), facts(), [[3, 4], [], 1, false, false, 'pending']],
    ['user rule, one of its users approved', rule(), facts({ approverIds: [4] }), [[3, 4], [4], 0, true, false, 'approved']],
    ['user rule, someone else approved', rule(), facts({ approverIds: [5] }), [[3, 4], [], 1, false, false, 'pending']],
    ['group members are approvers like users', rule({ candidateIds: [3, 5, 6] }), facts({ approverIds: [6] }), [[3, 5, 6], [6], 0, true, false, 'approved']],
    ['a designated reporter is not an approver', rule({ candidateIds: [9, 3] }), facts(), [[3], [], 1, false, false, 'pending']],
    ['the author is excluded when authors may not approve', rule({ candidateIds: [1, 3] }), facts({ approverIds: [1] }), [[3], [], 1, false, false, 'pending']],
    ['the author counts when authors may approve', rule({ candidateIds: [1, 3] }), facts({ approverIds: [1], allowAuthorApproval: true }), [[1, 3], [1], 0, true, false, 'approved']],
    ['committers are excluded when committers may not approve', rule({ candidateIds: [2, 3] }), facts({ allowCommitterApproval: false, approverIds: [2] }), [[3], [], 1, false, false, 'pending']],
    ['invalid (too few approvers), allowed when invalid: auto approved', rule({ approvalsRequired: 3 }), facts(), [[3, 4], [], 3, true, true, 'auto_approved']],
    ['invalid, not allowed when invalid: action required', rule({ approvalsRequired: 3, allowMergeWhenInvalid: false }), facts(), [[3, 4], [], 3, false, true, 'action_required']],
    ['no eligible approver at all is invalid', rule({ candidateIds: [9] }), facts(), [[], [], 1, true, true, 'auto_approved']],
    ['only the excluded author as approver is invalid', rule({ candidateIds: [1], allowMergeWhenInvalid: false }), facts(), [[], [], 1, false, true, 'action_required']],
    ['zero required is optional', rule({ approvalsRequired: 0 }), facts(), [[3, 4], [], 0, true, false, 'optional']],
    ['any approver: anyone eligible counts', rule({ ruleType: 'any_approver', candidateIds: [], approvalsRequired: 2 }), facts({ approverIds: [5, 6] }), [[2, 3, 4, 5, 6], [5, 6], 0, true, false, 'approved']],
    ['any approver: the author does not count', rule({ ruleType: 'any_approver', candidateIds: [], approvalsRequired: 1 }), facts({ approverIds: [1] }), [[2, 3, 4, 5, 6], [], 1, false, false, 'pending']],
    ['any approver is never invalid', rule({ ruleType: 'any_approver', candidateIds: [], approvalsRequired: 9 }), facts(), [[2, 3, 4, 5, 6], [], 9, false, false, 'pending']],
    ['fallback works like any approver', rule({ id: null, ruleType: 'fallback', name: 'fallback', candidateIds: [], approvalsRequired: 1 }), facts({ approverIds: [3] }), [[2, 3, 4, 5, 6], [3], 0, true, false, 'approved']],
    ['report approver (Coverage-Check) is a rule with users', rule({ ruleType: 'report_approver', reportType: 'code_coverage', name: 'Coverage-Check' }), facts({ approverIds: [3] }), [[3, 4], [3], 0, true, false, 'approved']],
    ['code owner rule, branch requires it', rule({ ruleType: 'code_owner', name: '*.rb', section: 'Backend', codeOwnerApprovalRequired: true }), facts(), [[3, 4], [], 1, false, false, 'pending']],
    ['code owner rule, branch does not require it: optional', rule({ ruleType: 'code_owner', name: '*.rb', codeOwnerApprovalRequired: false }), facts(), [[3, 4], [], 0, true, false, 'optional']],
    ['hidden groups change nothing about the rule itself', rule({ containsHiddenGroups: true }), facts({ approverIds: [3] }), [[3, 4], [3], 0, true, false, 'approved']],
  ] as const)('%s', (_name, input, given, expected) => {
    const result = evaluateRule(input, given);
    expect([result.approverIds, result.approvedByIds, result.approvalsLeft, result.approved, result.invalid, result.state]).toEqual(expected);
  });
});

describe('the whole state', () => {
  it('no rules: approved, nothing required, nothing needed', () => {
    const state = evaluateApprovalState(facts());
    expect(state).toMatchObject({ approved: true, approvalsRequired: 0, approvalsLeft: 0, approvalNeeded: false, approvedByIds: [] });
  });

  it('regular, code owner and report rules add up; any_approver is compared with their sum', () => {
    const rules = [
      rule({ id: 1, approvalsRequired: 1, candidateIds: [3] }),
      rule({ id: 2, ruleType: 'code_owner', approvalsRequired: 1, candidateIds: [4], codeOwnerApprovalRequired: true }),
      rule({ id: 3, ruleType: 'any_approver', approvalsRequired: 3, candidateIds: [] }),
    ];
    const before = evaluateApprovalState(facts({ rules }));
    expect([before.approvalsRequired, before.approvalsLeft, before.approved]).toEqual([3, 3, false]);
    const after = evaluateApprovalState(facts({ rules, approverIds: [3, 4] }));
    expect([after.approvalsRequired, after.approvalsLeft, after.approved]).toEqual([3, 1, false]);
    const done = evaluateApprovalState(facts({ rules, approverIds: [3, 4, 5] }));
    expect([done.approvalsLeft, done.approved, done.approvedByIds]).toEqual([0, true, [3, 4, 5]]);
  });

  it('lists invalid rules and suggests unactioned approvers, not from rules with hidden groups', () => {
    const rules = [rule({ id: 1, candidateIds: [3, 4] }), rule({ id: 2, candidateIds: [5], containsHiddenGroups: true }), rule({ id: 3, candidateIds: [9], approvalsRequired: 1 })];
    const state = evaluateApprovalState(facts({ rules, approverIds: [3] }));
    expect(state.invalidRules.map((r) => r.id)).toEqual([3]);
    expect(state.suggestedApproverIds).toEqual([4]);
  });

  it('an action-required rule keeps the merge request unapproved', () => {
    const state = evaluateApprovalState(facts({ rules: [rule({ candidateIds: [], allowMergeWhenInvalid: false })] }));
    expect([state.approved, state.rules[0]!.state]).toEqual([false, 'action_required']);
  });

  it('after the merge, invalid and unapproved rules are dropped', () => {
    const rules = [rule({ id: 1, candidateIds: [3] }), rule({ id: 2, candidateIds: [9] }), rule({ id: 3, candidateIds: [4] })];
    const state = evaluateApprovalState(facts({ rules, approverIds: [3], merged: true }));
    expect(state.rules.map((r) => r.id)).toEqual([1]);
  });
});

describe('who may approve', () => {
  it.each([
    ['an eligible developer', 3, facts(), true, null],
    ['a reporter or a stranger', 9, facts(), false, 'not_eligible'],
    ['nobody signed in', null, facts(), false, 'not_eligible'],
    ['someone who approved already', 3, facts({ approverIds: [3] }), false, 'already_approved'],
    ['the author, when authors may not', 1, facts(), false, 'author'],
    ['the author, when authors may', 1, facts({ allowAuthorApproval: true }), true, null],
    ['a committer, when committers may not', 2, facts({ allowCommitterApproval: false }), false, 'committer'],
    ['a committer, when committers may', 2, facts(), true, null],
  ] as const)('%s', (_name, userId, given, canApprove, reason) => {
    expect(approvalEligibility(userId, given)).toEqual({ canApprove, reason });
  });

  it("explains only the committer case, in GitLab's words", () => {
    expect(cannotApproveExplanation('committer')).toBe(COMMITTER_CANNOT_APPROVE);
    expect(COMMITTER_CANNOT_APPROVE).toBe("You can't approve because you added one or more commits to this merge request.");
    expect(cannotApproveExplanation('author')).toBeNull();
  });
});
