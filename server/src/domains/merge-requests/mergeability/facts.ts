/**
 * What the checks look at: one plain record built from the merge request row (with its last
 * trial merge), its project's settings and its blockers. No check reads anything else, so
 * each is a pure function of these facts and is tested with literal ones. Pure.
 */
import type { Project } from '../../projects/project.js';
import type { MergeRequest, MergeRequestState, MergeStatus } from '../merge-request.js';
import { draftlessTitle } from '../draft.js';

/** The project settings mergeability reads. */
export type MergeabilitySettings = Pick<
  Project,
  'merge_method' | 'only_allow_merge_if_all_discussions_are_resolved' | 'merge_request_title_regex' | 'only_allow_merge_if_pipeline_succeeds' | 'allow_merge_on_skipped_pipeline'
>;

/** GitLab's pipeline statuses, as the CI checks read them. */
export type HeadPipelineStatus =
  | 'created'
  | 'waiting_for_resource'
  | 'preparing'
  | 'pending'
  | 'running'
  | 'success'
  | 'failed'
  | 'canceling'
  | 'canceled'
  | 'skipped'
  | 'manual'
  | 'scheduled';

export interface MergeabilityFacts {
  state: MergeRequestState;
  draft: boolean;
  /** the title without its draft prefix (a draft is DRAFT_STATUS's business, not TITLE_REGEX's) */
  title: string;
  /** commits in the latest version; null until the first version is recorded */
  commitsCount: number | null;
  sourceBranchExists: boolean;
  /** the git mergeability cache (GitLab's merge_status state machine) */
  mergeStatus: MergeStatus;
  /** commits the target branch has that the head lacks; null when the last trial merge could not count them */
  divergedCommitsCount: number | null;
  mergeMethod: MergeabilitySettings['merge_method'];
  titleRegex: string | null;
  /** the state of each merge request that blocks this one */
  blockers: MergeRequestState[];
  discussionsMustBeResolved: boolean;
  unresolvedDiscussions: number;
  /** "Pipelines must succeed" */
  pipelineMustSucceed: boolean;
  /** "Skipped pipelines are considered successful" */
  skippedPipelineSucceeds: boolean;
  /** the status of the merge request's pipeline for its diff head (GitLab's diff_head_pipeline); null: none */
  headPipelineStatus: HeadPipelineStatus | null;
}

/** Statuses that mean "the trial merge has not answered for the current commits yet". */
export const PENDING_MERGE_STATUSES: ReadonlySet<MergeStatus> = new Set(['unchecked', 'preparing', 'checking', 'cannot_be_merged_recheck', 'cannot_be_merged_rechecking']);

export function factsOf(
  mergeRequest: MergeRequest,
  settings: MergeabilitySettings,
  context: { blockers: MergeRequestState[]; unresolvedDiscussions: number; headPipelineStatus?: HeadPipelineStatus | null },
): MergeabilityFacts {
  return {
    state: mergeRequest.state,
    draft: mergeRequest.draft,
    title: draftlessTitle(mergeRequest.title),
    commitsCount: mergeRequest.commits_count,
    // Before the first trial merge, the branch existed when the version was recorded.
    sourceBranchExists: mergeRequest.merge_checked_at === null || mergeRequest.merge_check_source_sha !== null,
    mergeStatus: mergeRequest.merge_status,
    divergedCommitsCount: mergeRequest.diverged_commits_count,
    mergeMethod: settings.merge_method,
    titleRegex: settings.merge_request_title_regex,
    blockers: context.blockers,
    discussionsMustBeResolved: settings.only_allow_merge_if_all_discussions_are_resolved,
    unresolvedDiscussions: context.unresolvedDiscussions,
    pipelineMustSucceed: settings.only_allow_merge_if_pipeline_succeeds,
    skippedPipelineSucceeds: settings.allow_merge_on_skipped_pipeline,
    headPipelineStatus: context.headPipelineStatus ?? null,
  };
}
