/**
 * The declared parameters of the merge request endpoints (lib/api/merge_requests.rb's names),
 * and the pure mappings from them to the service inputs: which of two names wins, what 0 or
 * `None` means. The shapes and coercions are the schemas'; the meanings are here.
 */
import { LIST_ORDERS, type MergeRequestListFilter, type MergeRequestScope, type UserMatch } from '../../../../domains/merge-requests/list-filter.js';
import { parseLabelList } from '../../../../domains/labels/label-rules.js';
import type { CreateMergeRequestInput, UpdateMergeRequestInput } from '../../../../domains/merge-requests/merge-requests.service.js';
import { ValidationError } from '../../../../platform/errors.js';
import { Bool, DateTime, Enum, Id, Input, List, NamespacedRef, Obj, Optional, Pagination, PathId, Removable, Str, Text, ParamsError, type Static } from '../../input/route-kit.js';

/** The :merge_request_iid path segment; anything but a positive integer names no merge request. */
export const MergeRequestPath = { id: NamespacedRef(), iid: PathId('Merge Request', { minimum: 1, maximum: 999_999_999 }) };

/** Labels: comma lists or arrays of titles (`labels=a,b`, `labels[]=a`). */
const Labels = () => Optional(List(Str()));

const Metadata = {
  labels: Labels(),
  add_labels: Labels(),
  remove_labels: Labels(),
  /** an id; 0, '' or null removes the milestone (GitLab) */
  milestone_id: Optional(Removable(Id())),
  /** `assignee_ids` wins over `assignee_id`; 0, '' or an empty list unassigns everyone (GitLab) */
  assignee_id: Optional(Removable(Id())),
  assignee_ids: Optional(List(Id())),
  reviewer_ids: Optional(List(Id())),
  remove_source_branch: Optional(Bool()),
  squash: Optional(Bool()),
  allow_collaboration: Optional(Bool()),
  allow_maintainer_to_push: Optional(Bool()),
  description: Optional(Str()),
};
type MetadataInput = Static<ReturnType<typeof Input<typeof Metadata>>>;

export const MergeRequestCreate = Input({
  ...Metadata,
  id: NamespacedRef(),
  source_branch: Str(),
  target_branch: Str(),
  title: Str(),
  target_project_id: Optional(Text({ description: 'ID or full path' })),
  draft: Optional(Bool()),
});

export const MergeRequestUpdate = Input({
  ...MergeRequestPath,
  ...Metadata,
  target_branch: Optional(Str()),
  title: Optional(Str()),
  state_event: Optional(Enum(['close', 'reopen'] as const)),
  discussion_locked: Optional(Bool()),
  draft: Optional(Bool()),
});

function assigneeIds(params: MetadataInput): number[] | undefined {
  if (params.assignee_ids !== undefined) return params.assignee_ids;
  if (params.assignee_id === null || params.assignee_id === 0) return [];
  return params.assignee_id === undefined ? undefined : [params.assignee_id];
}

function metadata(params: MetadataInput) {
  return {
    labels: parseLabelList(params.labels),
    addLabels: parseLabelList(params.add_labels),
    removeLabels: parseLabelList(params.remove_labels),
    milestoneId: params.milestone_id === 0 ? null : params.milestone_id,
    assigneeIds: assigneeIds(params),
    reviewerIds: params.reviewer_ids,
    removeSourceBranch: params.remove_source_branch,
    squash: params.squash,
    allowCollaboration: params.allow_collaboration ?? params.allow_maintainer_to_push,
    description: params.description,
  };
}

export function createInput(params: Static<typeof MergeRequestCreate>): CreateMergeRequestInput {
  return {
    ...metadata(params),
    sourceBranch: params.source_branch,
    targetBranch: params.target_branch,
    title: params.title,
    targetProjectId: params.target_project_id,
    draft: params.draft,
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

export function updateInput(params: Static<typeof MergeRequestUpdate>): UpdateMergeRequestInput {
  if (!UPDATE_PARAMS.some((key) => params[key] !== undefined)) {
    throw new ValidationError(`${UPDATE_PARAMS.join(', ')} are missing, at least one parameter must be provided`);
  }
  return {
    ...metadata(params),
    title: params.title,
    targetBranch: params.target_branch === '' ? undefined : params.target_branch,
    draft: params.draft,
    stateEvent: params.state_event,
    discussionLocked: params.discussion_locked,
  };
}

/** GitLab's merge request list filters (GET /merge_requests and a project's). */
export const MergeRequestList = Input({
  ...Pagination,
  state: Optional(Enum(['opened', 'closed', 'locked', 'merged', 'all'] as const)),
  scope: Optional(Text({ description: 'all, created_by_me, assigned_to_me or reviews_for_me (dashes allowed)' })),
  author_id: Optional(Id()),
  author_username: Optional(Text()),
  assignee_id: Optional(Text({ description: 'a user ID, None or Any' })),
  assignee_username: Optional(List(Str())),
  reviewer_id: Optional(Text({ description: 'a user ID, None or Any' })),
  reviewer_username: Optional(Text()),
  source_branch: Optional(Text()),
  target_branch: Optional(Text()),
  search: Optional(Text()),
  in: Optional(List(Enum(['title', 'description'] as const))),
  draft: Optional(Text({ description: 'yes or no' })),
  wip: Optional(Text({ description: 'yes or no' })),
  iids: Optional(List(Id())),
  created_after: Optional(DateTime()),
  created_before: Optional(DateTime()),
  updated_after: Optional(DateTime()),
  updated_before: Optional(DateTime()),
  labels: Labels(),
  milestone: Optional(Text()),
  not: Optional(Obj({ labels: Labels(), milestone: Optional(Text()) })),
  order_by: Optional(Enum(LIST_ORDERS)),
  sort: Optional(Enum(['asc', 'desc'] as const)),
  view: Optional(Text()),
  with_labels_details: Optional(Bool()),
});
type ListInput = Static<typeof MergeRequestList>;

const SCOPES = ['all', 'created_by_me', 'assigned_to_me', 'reviews_for_me'] as const;

/** A user id, or `None` / `Any` in any case (GitLab's assignee_id and reviewer_id). */
function userMatch(value: string | undefined, key: string): UserMatch | undefined {
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  if (lower === 'none' || lower === 'any') return lower;
  if (!/^\d{1,15}$/.test(value.trim())) throw new ParamsError([`${key} is invalid`]);
  return Number(value);
}

/** `wip` / `draft`: yes or no (GitLab), true or false. */
function draftFilter(params: ListInput): boolean | undefined {
  for (const key of ['draft', 'wip'] as const) {
    const value = params[key]?.toLowerCase();
    if (value === undefined) continue;
    if (value === 'yes' || value === 'true') return true;
    if (value === 'no' || value === 'false') return false;
    throw new ParamsError([`${key} is invalid`]);
  }
  return undefined;
}

/** `labels`: titles, or `None` / `Any` alone (GitLab's IssuableFinder). */
function labelsFilter(labels: string[] | undefined): string[] | 'none' | 'any' | undefined {
  const titles = parseLabelList(labels);
  if (!titles || titles.length === 0) return undefined;
  const only = titles.length === 1 ? titles[0]!.toLowerCase() : '';
  return only === 'none' || only === 'any' ? only : titles;
}

function milestoneFilter(title: string | undefined): string | undefined {
  const lower = title?.toLowerCase();
  return lower === 'none' || lower === 'any' ? lower : title;
}

export function listFilter(params: ListInput, defaults: { scope: MergeRequestScope }): MergeRequestListFilter {
  const scope = params.scope?.replace(/-/g, '_');
  if (scope !== undefined && !SCOPES.includes(scope as MergeRequestScope)) throw new ParamsError(['scope does not have a valid value']);
  const notLabels = parseLabelList(params.not?.labels);
  return {
    scope: (scope ?? defaults.scope) as MergeRequestScope,
    state: params.state === 'all' ? undefined : params.state,
    authorId: params.author_id,
    authorUsername: params.author_username,
    assignee: userMatch(params.assignee_id, 'assignee_id'),
    assigneeUsername: params.assignee_username?.[0],
    reviewer: userMatch(params.reviewer_id, 'reviewer_id'),
    reviewerUsername: params.reviewer_username,
    sourceBranch: params.source_branch,
    targetBranch: params.target_branch,
    search: params.search,
    searchIn: params.in,
    draft: draftFilter(params),
    iids: params.iids && params.iids.length > 0 ? params.iids : undefined,
    createdAfter: params.created_after,
    createdBefore: params.created_before,
    updatedAfter: params.updated_after,
    updatedBefore: params.updated_before,
    labels: labelsFilter(params.labels),
    notLabels,
    milestone: milestoneFilter(params.milestone),
    notMilestone: params.not?.milestone,
    orderBy: params.order_by ?? 'created_at',
    sort: params.sort ?? 'desc',
  };
}
