import { describe, expect, it } from 'vitest';
import { branchNameError, descriptionError, duplicateError, notAForkError, sameBranchError, taskCompletion, titleError, userCountError } from './merge-request-rules.js';

describe('merge request validation (GitLab messages and statuses)', () => {
  it('requires a title of at most 255 characters', () => {
    expect(titleError('')?.body).toEqual({ title: ["can't be blank"] });
    expect(titleError('x'.repeat(256))?.body).toEqual({ title: ['is too long (maximum is 255 characters)'] });
    expect(titleError('x'.repeat(255))).toBeNull();
  });

  it('limits the description', () => {
    expect(descriptionError('x'.repeat(1_048_577))?.status).toBe(400);
    expect(descriptionError('ok')).toBeNull();
  });

  it('refuses the same project and branch as source and target with 422', () => {
    const error = sameBranchError({ sourceProjectId: 1, targetProjectId: 1, sourceBranch: 'main', targetBranch: 'main' });
    expect(error).toMatchObject({ status: 422, body: ["You can't use same project/branch for source and target"] });
    expect(sameBranchError({ sourceProjectId: 2, targetProjectId: 1, sourceBranch: 'main', targetBranch: 'main' })).toBeNull();
  });

  it('answers a duplicate open merge request with 409 and its reference', () => {
    expect(duplicateError(4)).toMatchObject({ status: 409, body: ['Another open merge request already exists for this source branch: !4'] });
  });

  it('refuses a source outside the target fork network with 422', () => {
    expect(notAForkError()).toMatchObject({ status: 422, body: ['Source project is not a fork of the target project'] });
  });

  it('refuses invalid branch names', () => {
    expect(branchNameError('source_branch', 'a..b')?.body).toEqual({ source_branch: ['is invalid'] });
    expect(branchNameError('target_branch', '-x')?.body).toEqual({ target_branch: ['is invalid'] });
    expect(branchNameError('source_branch', 'feature/ok')).toBeNull();
  });

  it('limits assignees and reviewers to 200', () => {
    expect(userCountError('reviewers', 201)?.body).toEqual({ reviewers: ['total must be less than or equal to 200'] });
    expect(userCountError('assignees', 200)).toBeNull();
  });

  it('counts task list items', () => {
    expect(taskCompletion('- [ ] a\n- [x] b\n* [X] c\n1. [ ] d\n  - [~] e\n[ ] not a task\n- [ ]no space')).toEqual({ count: 5, completed_count: 3 });
    expect(taskCompletion('')).toEqual({ count: 0, completed_count: 0 });
  });
});
