import { describe, expect, it } from 'vitest';
import { approvalAction, approvalSummary, nounSeries, ruleNamesLeft, ruleStateLabel, sortRules } from './approvals-summary';

const rule = (name: string, type: 'REGULAR' | 'CODE_OWNER' | 'REPORT_APPROVER' | 'ANY_APPROVER', approved = false, section: string | null = null) => ({ name, type, approved, section });
const ada = { username: 'ada' };
const bob = { username: 'bob' };

describe('the approvals summary', () => {
  it.each([
    ['no rule asks for an approval', { approved: true, approvalsRequired: 0, approvalsLeft: 0, approvedBy: [], rules: [] }, 'Approval is optional', ''],
    ['optional, approved by someone', { approved: true, approvalsRequired: 0, approvalsLeft: 0, approvedBy: [bob], rules: [] }, 'Approval is optional', 'Approved by'],
    ['one named rule left', { approved: false, approvalsRequired: 2, approvalsLeft: 2, approvedBy: [], rules: [rule('Backend', 'REGULAR')] }, 'Requires 2 approvals from Backend.', ''],
    ['one approval left', { approved: false, approvalsRequired: 2, approvalsLeft: 1, approvedBy: [bob], rules: [rule('Backend', 'REGULAR')] }, 'Requires 1 approval from Backend.', 'Approved by'],
    ['three names', { approved: false, approvalsRequired: 3, approvalsLeft: 3, approvedBy: [], rules: [rule('A', 'REGULAR'), rule('B', 'REPORT_APPROVER'), rule('*.rb', 'CODE_OWNER')] }, 'Requires 3 approvals from A, B, and Code Owners.', ''],
    ['only an any-approver rule', { approved: false, approvalsRequired: 1, approvalsLeft: 1, approvedBy: [], rules: [rule('All Members', 'ANY_APPROVER')] }, 'Requires 1 approval from eligible users.', ''],
    ['approved by me', { approved: true, approvalsRequired: 1, approvalsLeft: 0, approvedBy: [ada], rules: [rule('Backend', 'REGULAR', true)] }, '', 'Approved by you'],
    ['approved by me and others', { approved: true, approvalsRequired: 2, approvalsLeft: 0, approvedBy: [ada, bob], rules: [rule('Backend', 'REGULAR', true)] }, '', 'Approved by you and others'],
  ])('%s', (_, input, left, approvedBy) => {
    expect(approvalSummary({ ...input, me: 'ada' })).toEqual({ left, approvedBy });
  });

  it('a visitor is never "you"', () => {
    expect(approvalSummary({ approved: true, approvalsRequired: 1, approvalsLeft: 0, approvedBy: [ada], rules: [], me: null }).approvedBy).toBe('Approved by');
  });
});

describe('rules', () => {
  it('code owners first, then by name and section', () => {
    const sorted = sortRules([rule('b', 'REGULAR'), rule('*.rb', 'CODE_OWNER', false, 'Z'), rule('a', 'REGULAR', false, 'S2'), rule('a', 'REGULAR', false, 'S1'), rule('*.js', 'CODE_OWNER')]);
    expect(sorted.map((r) => `${r.name}/${r.section ?? ''}`)).toEqual(['*.js/', '*.rb/Z', 'a/S1', 'a/S2', 'b/']);
  });

  it('names left: approved rules drop out, code owners named once', () => {
    expect(ruleNamesLeft([rule('A', 'REGULAR', true), rule('B', 'REGULAR'), rule('x', 'CODE_OWNER'), rule('y', 'CODE_OWNER')])).toEqual(['B', 'Code Owners']);
  });

  it.each([
    [{ approved: true, invalid: false, allowMergeWhenInvalid: true }, 'Approved'],
    [{ approved: false, invalid: false, allowMergeWhenInvalid: true }, 'Pending approval'],
    [{ approved: true, invalid: true, allowMergeWhenInvalid: true }, 'Auto approved'],
    [{ approved: false, invalid: true, allowMergeWhenInvalid: false }, 'Action required'],
  ])('state of %o is %s', (input, label) => {
    expect(ruleStateLabel(input)).toBe(label);
  });

  it('noun series', () => {
    expect([nounSeries([]), nounSeries(['a']), nounSeries(['a', 'b']), nounSeries(['a', 'b', 'c'])]).toEqual(['', 'a', 'a and b', 'a, b, and c']);
  });
});

describe('Approve or Revoke', () => {
  it.each([
    [{ canApprove: true, approvedByMe: false, state: 'opened' }, 'approve'],
    [{ canApprove: true, approvedByMe: false, state: 'merged' }, null],
    [{ canApprove: false, approvedByMe: true, state: 'opened' }, 'revoke'],
    [{ canApprove: false, approvedByMe: true, state: 'closed' }, 'revoke'],
    [{ canApprove: false, approvedByMe: true, state: 'merged' }, null],
    [{ canApprove: false, approvedByMe: false, state: 'opened' }, null],
  ])('%o → %s', (input, action) => {
    expect(approvalAction(input)).toBe(action);
  });
});
