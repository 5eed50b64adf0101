/**
 * Validation of merge request input with GitLab's messages and status codes (lib/api
 * helpers handle_merge_request_errors!: branch_conflict and validate_fork → 422,
 * validate_branches → 409, field errors → 400). Pure: each returns the error to throw.
 */
import { t } from '@tributary/contracts';
import { ConflictError, UnprocessableError, ValidationError } from '../../platform/errors.js';
import { validateBranchName } from '../../git/index.js';
import { MAX_ASSIGNEES_OR_REVIEWERS, MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from './merge-request.js';

export const MESSAGES = {
  sameBranch: "You can't use same project/branch for source and target",
  duplicate: 'Another open merge request already exists for this source branch: %{conflicting_mr_reference}',
  notAFork: 'Source project is not a fork of the target project',
  tooManyUsers: 'total must be less than or equal to %{size}',
  missingSourceBranch: 'Source branch "%{branch}" does not exist',
  missingTargetBranch: 'Target branch "%{branch}" does not exist',
} as const;

/**
 * A branch that does not exist: GitLab's BuildService adds it to the request's base errors,
 * which its API answers with 422 and a list of messages.
 */
export function missingBranchError(side: 'source' | 'target', branch: string): UnprocessableError {
  return new UnprocessableError([t(side === 'source' ? MESSAGES.missingSourceBranch : MESSAGES.missingTargetBranch, { branch })]);
}

export function titleError(title: string): ValidationError | null {
  if (title.trim() === '') return ValidationError.field('title', "can't be blank");
  if (title.length > MAX_TITLE_LENGTH) return ValidationError.field('title', `is too long (maximum is ${MAX_TITLE_LENGTH} characters)`);
  return null;
}

export function descriptionError(description: string): ValidationError | null {
  return description.length > MAX_DESCRIPTION_LENGTH ? ValidationError.field('description', `is too long (maximum is ${MAX_DESCRIPTION_LENGTH} characters)`) : null;
}

/** GitLab validates branch names as refs (`errors.add(attr)` → "is invalid"). */
export function branchNameError(field: 'source_branch' | 'target_branch', branch: string): ValidationError | null {
  return validateBranchName(branch) ? ValidationError.field(field, 'is invalid') : null;
}

export function sameBranchError(input: { sourceProjectId: number; targetProjectId: number; sourceBranch: string; targetBranch: string }): UnprocessableError | null {
  return input.sourceProjectId === input.targetProjectId && input.sourceBranch === input.targetBranch ? new UnprocessableError([MESSAGES.sameBranch]) : null;
}

export function duplicateError(conflictingIid: number): ConflictError {
  return new ConflictError([t(MESSAGES.duplicate, { conflicting_mr_reference: `!${conflictingIid}` })]);
}

export function notAForkError(): UnprocessableError {
  return new UnprocessableError([MESSAGES.notAFork]);
}

export function userCountError(field: 'assignees' | 'reviewers', count: number): ValidationError | null {
  return count > MAX_ASSIGNEES_OR_REVIEWERS ? ValidationError.field(field, t(MESSAGES.tooManyUsers, { size: MAX_ASSIGNEES_OR_REVIEWERS })) : null;
}

/** GitLab's task list count over a description (task_completion_status). */
export function taskCompletion(description: string): { count: number; completed_count: number } {
  const tasks = [...description.matchAll(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[([ xX~])\](?=[ \t]|$)/gm)];
  return { count: tasks.length, completed_count: tasks.filter((task) => task[1] !== ' ').length };
}
