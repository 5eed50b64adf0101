/**
 * The merge request records as the repositories return them, and the limits GitLab puts on
 * them. Pure types and constants.
 */
import type { ProjectAction } from '../../auth/permissions.js';
import type { Project } from '../projects/project.js';

export const MERGE_REQUEST_STATES = ['opened', 'closed', 'merged', 'locked'] as const;
export type MergeRequestState = (typeof MERGE_REQUEST_STATES)[number];

export type MergeStatus =
  | 'unchecked'
  | 'preparing'
  | 'checking'
  | 'can_be_merged'
  | 'cannot_be_merged'
  | 'cannot_be_merged_recheck'
  | 'cannot_be_merged_rechecking';

/** GitLab: Issuable::TITLE_LENGTH_MAX, DESCRIPTION_LENGTH_MAX. */
export const MAX_TITLE_LENGTH = 255;
export const MAX_DESCRIPTION_LENGTH = 1_048_576;
/** GitLab: MergeRequest::MAX_NUMBER_OF_ASSIGNEES_OR_REVIEWERS. */
export const MAX_ASSIGNEES_OR_REVIEWERS = 200;

export interface MergeRequest {
  id: number;
  iid: number;
  target_project_id: number;
  source_project_id: number | null;
  source_branch: string;
  target_branch: string;
  title: string;
  description: string;
  state: MergeRequestState;
  draft: boolean;
  author_id: number | null;
  allow_collaboration: boolean;
  squash: boolean;
  force_remove_source_branch: boolean;
  should_remove_source_branch: boolean | null;
  discussion_locked: boolean | null;
  retargeted: boolean;
  merge_status: MergeStatus;
  merge_error: string | null;
  merge_commit_sha: string | null;
  squash_commit_sha: string | null;
  merge_user_id: number | null;
  merged_by_id: number | null;
  closed_by_id: number | null;
  /** a milestone of the target project or one of its groups (domains/milestones/) */
  milestone_id: number | null;
  merged_at: Date | null;
  closed_at: Date | null;
  latest_diff_id: number | null;
  /** the last trial merge (mergeability/): what it merged and saw, and its commit */
  merge_check_head_sha: string | null;
  merge_check_source_sha: string | null;
  merge_check_target_sha: string | null;
  merge_ref_sha: string | null;
  diverged_commits_count: number | null;
  merge_checked_at: Date | null;
  merge_check_lease_until: Date | null;
  /** set and cleared by the rebase (merging/) */
  rebase_in_progress: boolean;
  created_at: Date;
  updated_at: Date;
  /** from the latest version (null before the first one is recorded) */
  base_commit_sha: string | null;
  start_commit_sha: string | null;
  head_commit_sha: string | null;
  real_size: string | null;
  commits_count: number | null;
  /** the target project's full path, for references and URLs */
  target_full_path: string;
  /** the target project's squash setting (squash_on_merge) */
  target_squash_option: 'never' | 'always' | 'default_on' | 'default_off';
}

export type DiffVersionState = 'collected' | 'empty' | 'overflow';

/** One version of a merge request's diff (GitLab's MergeRequestDiff). */
export interface DiffVersion {
  id: number;
  merge_request_id: number;
  base_commit_sha: string | null;
  start_commit_sha: string;
  head_commit_sha: string;
  state: DiffVersionState;
  real_size: string;
  commits_count: number;
  files_count: number;
  added_lines: number;
  removed_lines: number;
  created_at: Date;
}

/** What a version stores per changed file (merge_request_diff_files), without patch text. */
export interface DiffFileRow {
  relative_order: number;
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  too_large: boolean;
  collapsed: boolean;
  binary: boolean;
  old_blob_id: string;
  new_blob_id: string;
  added_lines: number;
  removed_lines: number;
}

/**
 * `title` (migration 0005) keeps both titles; `labels` the removed (from) and added (to) labels as
 * `~id` references, `milestone` the old and new milestone references (migration 0013); `assignees` and
 * `reviewers` the usernames before (from) and after (to), space-separated (migration 0015). System
 * notes (domains/notes/) are made from these events.
 */
export type MergeRequestEventAction = 'opened' | 'closed' | 'reopened' | 'merged' | 'retargeted' | 'draft' | 'ready' | 'title' | 'description' | 'labels' | 'milestone' | 'assignees' | 'reviewers'
  // approvals and reviews (domains/approvals/)
  | 'approved' | 'unapproved' | 'approvals_reset' | 'approvals_kept' | 'requested_changes' | 'reviewed'
  // merge trains (domains/merge-trains/): from_value the note's kind, to_value its detail
  | 'merge_train'
  // auto-merge (domains/auto-merge/): to_value is the head sha it was set for, or the abort reason
  | 'auto_merge_enabled' | 'auto_merge_canceled' | 'auto_merge_aborted';

/** A merge request with the project it lives in and what the caller may do there. */
export interface OpenedMergeRequest {
  project: Project;
  mergeRequest: MergeRequest;
  abilities: Set<ProjectAction>;
}
