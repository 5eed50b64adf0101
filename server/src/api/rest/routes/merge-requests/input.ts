/**
 * Request parameters of the merge request endpoints parsed into service inputs, with
 * Grape's coercions (numeric strings, `true`/`false`, `a,b` or `a[]` lists) and GitLab's
 * names. Pure.
 */
import { ValidationError } from '../../../../platform/errors.js';
import { LIST_ORDERS, type MergeRequestListFilter, type MergeRequestScope, type UserMatch } from '../../../../domains/merge-requests/list-filter.js';
import { parseLabelList } from '../../../../domains/labels/label-rules.js';
import type { CreateMergeRequestInput, UpdateMergeRequestInput } from '../../../../domains/merge-requests/merge-requests.service.js';
import { oneOf, optionalBool, optionalInt, optionalString, optionalStringArray, requiredString, type Params } from '../../params.js';

const invalid = (key: string) => new ValidationError(`400 (Bad request) "${key}" is invalid`);

/** `assignee_ids[]=1&assignee_ids[]=2`, `assignee_ids=1,2`, or JSON numbers. */
export function optionalIdList(params: Params, key: string): number[] | undefined {
  const values = typeof params[key] === 'number' ? [String(params[key])] : optionalStringArray(params, key);
  if (values === undefined) return undefined;
  return values.map((value) => {
    const id = Number(value);
    if (!Number.isSafeInteger(id) || id < 0) throw invalid(key);
    return id;
  });
}

/** `assignee_ids` wins over `assignee_id`; 0 or an empty list unassigns everyone (GitLab). */
function assigneeIds(params: Params): number[] | undefined {
  const ids = optionalIdList(params, 'assignee_ids');
  if (ids !== undefined) return ids;
  const single = optionalInt(params, 'assignee_id');
  if (single !== undefined) return single === 0 ? [] : [single];
  return params.assignee_id === '' ? [] : undefined;
}

/** `milestone_id`: an id; 0, '' or null removes the milestone (GitLab). */
function milestoneId(params: Params): number | null | undefined {
  if (params.milestone_id === undefined) return undefined;
  if (params.milestone_id === null || params.milestone_id === '') return null;
  const id = optionalInt(params, 'milestone_id');
  if (id === undefined || id < 0) throw invalid('milestone_id');
  return id === 0 ? null : id;
}

/** `labels`, `add_labels`, `remove_labels`: comma lists or arrays of titles. */
function metadata(params: Params) {
  return {
    labels: params.labels === '' ? [] : parseLabelList(optionalStringArray(params, 'labels')),
    addLabels: parseLabelList(optionalStringArray(params, 'add_labels')),
    removeLabels: parseLabelList(optionalStringArray(params, 'remove_labels')),
    milestoneId: milestoneId(params),
  };
}

export function parseCreate(params: Params): CreateMergeRequestInput {
  return {
    ...metadata(params),
    sourceBranch: requiredString(params, 'source_branch'),
    targetBranch: requiredString(params, 'target_branch'),
    title: requiredString(params, 'title'),
    description: optionalString(params, 'description'),
    targetProjectId: optionalString(params, 'target_project_id') || undefined,
    assigneeIds: assigneeIds(params),
    reviewerIds: optionalIdList(params, 'reviewer_ids'),
    removeSourceBranch: optionalBool(params, 'remove_source_branch'),
    squash: optionalBool(params, 'squash'),
    allowCollaboration: optionalBool(params, 'allow_collaboration') ?? optionalBool(params, 'allow_maintainer_to_push'),
    draft: optionalBool(params, 'draft'),
  };
}

/** GitLab's `at_least_one_of` list for PUT. */
export const UPDATE_PARAMS = [
  'assignee_id',
  'assignee_ids',
  'reviewer_ids',
  'description',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'remove_source_branch',
  'allow_collaboration',
  'allow_maintainer_to_push',
  'squash',
  'target_branch',
  'title',
  'state_event',
  'discussion_locked',
  'draft',
] as const;

export function parseUpdate(params: Params): UpdateMergeRequestInput {
  if (!UPDATE_PARAMS.some((key) => params[key] !== undefined)) {
    throw new ValidationError(`${UPDATE_PARAMS.join(', ')} are missing, at least one parameter must be provided`);
  }
  const targetBranch = optionalString(params, 'target_branch');
  const title = optionalString(params, 'title');
  return {
    ...metadata(params),
    title,
    description: optionalString(params, 'description'),
    targetBranch: targetBranch === '' ? undefined : targetBranch,
    draft: optionalBool(params, 'draft'),
    assigneeIds: assigneeIds(params),
    reviewerIds: optionalIdList(params, 'reviewer_ids'),
    stateEvent: params.state_event === undefined ? undefined : oneOf(params, 'state_event', ['close', 'reopen'] as const, 'close'),
    squash: optionalBool(params, 'squash'),
    removeSourceBranch: optionalBool(params, 'remove_source_branch'),
    allowCollaboration: optionalBool(params, 'allow_collaboration') ?? optionalBool(params, 'allow_maintainer_to_push'),
    discussionLocked: optionalBool(params, 'discussion_locked'),
  };
}

/** A user id, or `None` / `Any` in any case (GitLab's assignee_id and reviewer_id). */
function userMatch(params: Params, key: string): UserMatch | undefined {
  const value = optionalString(params, key);
  if (value === undefined || value === '') return undefined;
  const lower = value.toLowerCase();
  if (lower === 'none' || lower === 'any') return lower;
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 0) throw invalid(key);
  return id;
}

function optionalDate(params: Params, key: string): Date | undefined {
  const value = optionalString(params, key);
  if (value === undefined || value === '') return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw invalid(key);
  return date;
}

/** `wip` / `draft`: yes or no (GitLab), true or false. */
function draftFilter(params: Params): boolean | undefined {
  for (const key of ['draft', 'wip']) {
    const value = optionalString(params, key)?.toLowerCase();
    if (value === undefined || value === '') continue;
    if (value === 'yes' || value === 'true') return true;
    if (value === 'no' || value === 'false') return false;
    throw invalid(key);
  }
  return undefined;
}

/** `labels`: titles, or `None` / `Any` alone (GitLab's IssuableFinder). */
function labelsFilter(params: Params): string[] | 'none' | 'any' | undefined {
  const titles = parseLabelList(optionalStringArray(params, 'labels'));
  if (!titles || titles.length === 0) return undefined;
  const only = titles.length === 1 ? titles[0]!.toLowerCase() : '';
  return only === 'none' || only === 'any' ? only : titles;
}

function milestoneFilter(params: Params): string | undefined {
  const title = optionalString(params, 'milestone');
  if (title === undefined || title === '') return undefined;
  const lower = title.toLowerCase();
  return lower === 'none' || lower === 'any' ? lower : title;
}

/** `not[labels]`, `not[milestone]` (nested by the parameter parser). */
function notParams(params: Params): Params {
  return params.not && typeof params.not === 'object' && !Array.isArray(params.not) ? (params.not as Params) : {};
}

export function parseListFilter(params: Params, defaults: { scope: MergeRequestScope }): MergeRequestListFilter {
  const state = oneOf(params, 'state', ['opened', 'closed', 'locked', 'merged', 'all'] as const, 'all');
  const searchIn = optionalStringArray(params, 'in');
  if (searchIn?.some((field) => field !== 'title' && field !== 'description')) throw invalid('in');
  const scope = optionalString(params, 'scope')?.replace(/-/g, '_');
  const scopes = ['all', 'created_by_me', 'assigned_to_me', 'reviews_for_me'] as const;
  if (scope && !scopes.includes(scope as MergeRequestScope)) throw new ValidationError('400 (Bad request) "scope" does not have a valid value');
  const iids = optionalIdList(params, 'iids');
  return {
    scope: (scope || defaults.scope) as MergeRequestScope,
    state: state === 'all' ? undefined : state,
    authorId: optionalInt(params, 'author_id'),
    authorUsername: optionalString(params, 'author_username') || undefined,
    assignee: userMatch(params, 'assignee_id'),
    assigneeUsername: optionalStringArray(params, 'assignee_username')?.[0],
    reviewer: userMatch(params, 'reviewer_id'),
    reviewerUsername: optionalString(params, 'reviewer_username') || undefined,
    sourceBranch: optionalString(params, 'source_branch') || undefined,
    targetBranch: optionalString(params, 'target_branch') || undefined,
    search: optionalString(params, 'search') || undefined,
    searchIn: searchIn as Array<'title' | 'description'> | undefined,
    draft: draftFilter(params),
    iids: iids && iids.length > 0 ? iids : undefined,
    createdAfter: optionalDate(params, 'created_after'),
    createdBefore: optionalDate(params, 'created_before'),
    updatedAfter: optionalDate(params, 'updated_after'),
    updatedBefore: optionalDate(params, 'updated_before'),
    labels: labelsFilter(params),
    notLabels: parseLabelList(optionalStringArray(notParams(params), 'labels')) || undefined,
    milestone: milestoneFilter(params),
    notMilestone: optionalString(notParams(params), 'milestone') || undefined,
    orderBy: oneOf(params, 'order_by', LIST_ORDERS, 'created_at'),
    sort: oneOf(params, 'sort', ['asc', 'desc'] as const, 'desc'),
  };
}

/** The :merge_request_iid path segment; anything but a positive integer names nothing. */
export function parseIid(value: string): number | null {
  return /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}
