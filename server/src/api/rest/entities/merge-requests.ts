import type { MergeRequest } from '../../../domains/merge-requests/merge-request.js';
import { isAutoMergeSet } from '../../../domains/auto-merge/rules.js';
import { taskCompletion } from '../../../domains/merge-requests/merge-request-rules.js';
import { publicMergeStatus, restDetailedMergeStatus } from '../../../domains/merge-requests/mergeability/index.js';
import type { MergeRequestDetail, MergeRequestView } from '../../../domains/merge-requests/merge-request-views.js';
import type { User } from '../../../domains/users/user.js';
import { labelBasic, milestoneEntity } from './labels.js';
import { userBasic, type UrlBuilder } from './users.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export const mergeRequestUrl = (urls: UrlBuilder, mr: Pick<MergeRequest, 'target_full_path' | 'iid'>) => urls.web(`${mr.target_full_path}/-/merge_requests/${mr.iid}`);

/** `view=simple` (doc/api/merge_requests.md): the few fields a picker needs. */
export function mergeRequestSimple(mr: MergeRequest, urls: UrlBuilder) {
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.target_project_id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.created_at.toISOString(),
    updated_at: mr.updated_at.toISOString(),
    web_url: mergeRequestUrl(urls, mr),
  };
}

/** GitLab's squash_on_merge?: the project's "always" and "never" override the request's choice. */
export function squashOnMerge(mr: Pick<MergeRequest, 'squash' | 'target_squash_option'>): boolean {
  if (mr.target_squash_option === 'always') return true;
  if (mr.target_squash_option === 'never') return false;
  return mr.squash;
}

/** The blocking merge requests, as GitLab's widget shows them: visible ones by state, and counts. */
function blockingMergeRequests(blocking: MergeRequestDetail['blockingMergeRequests'], urls: UrlBuilder) {
  const byState: Record<'opened' | 'closed' | 'merged' | 'locked', ReturnType<typeof blockingEntry>[]> = { opened: [], closed: [], merged: [], locked: [] };
  for (const mr of blocking.visible) byState[mr.state].push(blockingEntry(mr, urls));
  return { visible_merge_requests: byState, hidden_count: blocking.hiddenCount, total_count: blocking.visible.length + blocking.hiddenCount };
}

function blockingEntry(mr: MergeRequest, urls: UrlBuilder) {
  return Object.assign(mergeRequestSimple(mr, urls), {
    reference: `${mr.target_full_path}!${mr.iid}`,
    merged_at: iso(mr.merged_at),
    closed_at: iso(mr.closed_at),
  });
}

export interface BasicEntityOptions {
  /** `with_labels_details=true`: labels as objects instead of titles (GitLab) */
  withLabelsDetails?: boolean;
}

/** GitLab's Entities::MergeRequestBasic (every list). Pipelines arrive with their issues. */
export function mergeRequestBasic(view: MergeRequestView, urls: UrlBuilder, options: BasicEntityOptions = {}) {
  const { mergeRequest: mr } = view;
  const user = (value: User | null) => (value ? userBasic(value, urls) : null);
  const mergeUser = view.mergeUser ?? view.mergedBy;
  return Object.assign(mergeRequestSimple(mr, urls), {
    merged_by: user(view.mergedBy),
    merge_user: user(mergeUser),
    merged_at: iso(mr.merged_at),
    closed_by: user(view.closedBy),
    closed_at: iso(mr.closed_at),
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    user_notes_count: view.userNotesCount,
    upvotes: view.votes.upvotes,
    downvotes: view.votes.downvotes,
    author: user(view.author),
    assignees: view.assignees.map((assignee) => userBasic(assignee, urls)),
    assignee: view.assignees[0] ? userBasic(view.assignees[0], urls) : null,
    reviewers: view.reviewers.map((reviewer) => userBasic(reviewer, urls)),
    source_project_id: mr.source_project_id,
    target_project_id: mr.target_project_id,
    labels: options.withLabelsDetails ? view.labels.map(labelBasic) : view.labels.map((label) => label.title),
    draft: mr.draft,
    work_in_progress: mr.draft,
    milestone: view.milestone ? milestoneEntity(view.milestone, urls) : null,
    merge_when_pipeline_succeeds: isAutoMergeSet(mr),
    merge_status: publicMergeStatus(mr.merge_status),
    detailed_merge_status: restDetailedMergeStatus(view.mergeability?.detailedMergeStatus ?? 'UNCHECKED'),
    merge_after: null,
    sha: mr.head_commit_sha,
    merge_commit_sha: mr.merge_commit_sha,
    squash_commit_sha: mr.squash_commit_sha,
    discussion_locked: mr.discussion_locked,
    should_remove_source_branch: mr.should_remove_source_branch,
    force_remove_source_branch: mr.force_remove_source_branch,
    prepared_at: mr.latest_diff_id === null ? null : mr.created_at.toISOString(),
    allow_collaboration: mr.allow_collaboration,
    allow_maintainer_to_push: mr.allow_collaboration,
    reference: `!${mr.iid}`,
    references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${mr.target_full_path}!${mr.iid}` },
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    squash: mr.squash,
    squash_on_merge: squashOnMerge(mr),
    task_completion_status: taskCompletion(mr.description),
    has_conflicts: mr.merge_status === 'cannot_be_merged',
    // GitLab: true unless the project wants every thread resolved and one is not.
    blocking_discussions_resolved: !view.mergeability?.checks.some((check) => check.identifier === 'DISCUSSIONS_NOT_RESOLVED' && check.status === 'FAILED'),
    imported: false,
    imported_from: 'none',
  });
}

export interface FullEntityOptions extends BasicEntityOptions {
  /** GET …/:iid?include_diverged_commits_count=true (GitLab adds the field only then) */
  includeDivergedCommitsCount?: boolean;
}

/** GitLab's Entities::MergeRequest (single merge request, create, update). */
export function mergeRequestFull(detail: MergeRequestDetail, urls: UrlBuilder, options: FullEntityOptions = {}) {
  const { mergeRequest: mr } = detail;
  const entity = Object.assign(mergeRequestBasic(detail, urls, options), {
    subscribed: false,
    changes_count: mr.real_size,
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: null,
    head_pipeline: null,
    diff_refs: mr.head_commit_sha ? { base_sha: mr.base_commit_sha, head_sha: mr.head_commit_sha, start_sha: mr.start_commit_sha } : null,
    merge_error: mr.merge_error,
    rebase_in_progress: mr.rebase_in_progress,
    first_contribution: detail.firstContribution,
    user: { can_merge: detail.canMerge },
    retargeted: mr.retargeted,
    // Not in GitLab's REST entity: its widget's blocking_merge_requests, for the same page.
    blocking_merge_requests: blockingMergeRequests(detail.blockingMergeRequests, urls),
  });
  if (!options.includeDivergedCommitsCount) return entity;
  return Object.assign(entity, { diverged_commits_count: detail.mergeability?.divergedCommitsCount ?? 0 });
}

/**
 * GitLab's MergeRequestDependency: a side the caller may not read is left out, not nulled
 * (EE::API::Entities::MergeRequestDependency exposes each side only `if` it can be read).
 */
export function mergeRequestDependency(
  block: { id: number; project_id: number },
  sides: { blocking: MergeRequestView | null; blocked: MergeRequestView | null },
  urls: UrlBuilder,
) {
  const entity: Record<string, unknown> = { id: block.id };
  if (sides.blocking) entity.blocking_merge_request = mergeRequestBasic(sides.blocking, urls);
  if (sides.blocked) entity.blocked_merge_request = mergeRequestBasic(sides.blocked, urls);
  entity.project_id = block.project_id;
  return entity;
}
