import { describe, expect, it } from 'vitest';
import { notApprovedCheck } from './not-approved.js';
import { requestedChangesCheck } from './requested-changes.js';
import { mergeableFacts } from './test-facts.js';

describe('NOT_APPROVED', () => {
  it.each([
    ['no rule asks for approvals', { approvalNeeded: false, approved: true }, 'INACTIVE'],
    ['rules ask, all approved', { approvalNeeded: true, approved: true }, 'SUCCESS'],
    ['rules ask, approvals missing', { approvalNeeded: true, approved: false }, 'FAILED'],
    ['an action-required rule with nothing required elsewhere', { approvalNeeded: false, approved: false }, 'FAILED'],
  ] as const)('%s → %s', (_name, overrides, expected) => {
    expect(notApprovedCheck.run(mergeableFacts(overrides))).toBe(expected);
  });
});

describe('REQUESTED_CHANGES', () => {
  it.each([
    ['no reviewers', { hasReviewers: false, changesRequested: false }, 'INACTIVE'],
    ['reviewers, none requested changes', { hasReviewers: true, changesRequested: false }, 'SUCCESS'],
    ['a reviewer requested changes', { hasReviewers: true, changesRequested: true }, 'FAILED'],
  ] as const)('%s → %s', (_name, overrides, expected) => {
    expect(requestedChangesCheck.run(mergeableFacts(overrides))).toBe(expected);
  });
});
