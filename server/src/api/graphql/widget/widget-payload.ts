import { ACCESS_LEVEL_NAMES } from '@tributary/contracts';
import { isAutoMergeSet } from '../../../domains/auto-merge/rules.js';
import { publicMergeStatus, restDetailedMergeStatus } from '../../../domains/merge-requests/mergeability/index.js';
import { userBasic, type UrlBuilder } from '../../rest/entities/users.js';
import { ciStatus, pipelineWarnings, widgetPipelineEntity } from './pipeline-view.js';
import type { MergeRequestNode, RequestScope } from './request-scope.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * The widget data of the web route `/:full_path/-/merge_requests/:iid/widget.json` (GitLab's
 * MergeRequestPollWidgetEntity, the widget data the server sends):
 * the fields Tributary can fill, in GitLab's snake_case (auto_merge_enabled, auto_merge_strategy
 * and available_auto_merge_strategies as GraphQL answers them). Approval and deployment fields
 * arrive with their issues. `mergeability_checks` uses the GraphQL enums,
 * so a page that polls this endpoint (its WebSocket down) sees what the query would show.
 */
export async function widgetPayload(scope: RequestScope, node: MergeRequestNode, urls: UrlBuilder) {
  const { mergeRequest: mr, project } = node;
  const view = scope.view(node);
  const [sourceTip, targetTip, mergeability, commits, sourceProtected, permissions, users, accessLevel, blockers, mergeOngoing, messages, pipelines, autoMerge] = await Promise.all([
    view.sourceTip(),
    view.targetTip(),
    view.mergeability(),
    view.commitsWithoutMergeCommits(),
    view.sourceBranchProtected(),
    view.permissions(),
    Promise.all([mr.merged_by_id ?? mr.merge_user_id, mr.merged_by_id, mr.closed_by_id].map((id) => scope.user(id))),
    scope.accessLevel(project),
    view.blockers(),
    view.mergeOngoing(),
    view.commitMessages(),
    view.pipelines(),
    scope.autoMerge(node),
  ]);
  const head = pipelines.head;
  const warnings = pipelineWarnings({ mergePipelinesEnabled: project.merge_pipelines_enabled, retargeted: mr.retargeted, fromFork: mr.source_project_id !== mr.target_project_id });
  const [mergeUser, mergedBy, closedBy] = users.map((user) => (user ? userBasic(user, urls) : null));
  const mergedSha = view.mergedCommitSha;
  const webPath = `/${mr.target_full_path}/-/merge_requests/${mr.iid}`;
  return {
    id: mr.id,
    iid: mr.iid,
    title: mr.title,
    state: mr.state,
    draft: mr.draft,
    web_url: urls.web(webPath.slice(1)),
    merge_request_path: webPath,
    source_branch: mr.source_branch,
    target_branch: mr.target_branch,
    source_branch_exists: sourceTip !== null,
    target_branch_exists: targetTip !== null,
    branch_missing: sourceTip === null || targetTip === null,
    source_branch_protected: sourceProtected,
    target_branch_sha: targetTip,
    diff_head_sha: mr.head_commit_sha,
    target_project_id: mr.target_project_id,
    target_project_full_path: mr.target_full_path,
    source_project_id: mr.source_project_id,
    project_archived: project.archived,
    merge_method: project.merge_method,
    ff_only_enabled: project.merge_method === 'ff',
    ff_merge_possible: mergeability.divergedCommitsCount === 0,
    only_allow_merge_if_pipeline_succeeds: project.only_allow_merge_if_pipeline_succeeds,
    allow_merge_on_skipped_pipeline: project.allow_merge_on_skipped_pipeline,
    merge_pipelines_enabled: project.merge_pipelines_enabled,
    // the merge request's pipeline for its diff head (GitLab's has_ci, ci_status, pipeline)
    has_ci: pipelines.hasCi,
    ci_status: head ? ciStatus(head) : null,
    pipeline: head ? widgetPipelineEntity(head, urls) : null,
    // the head pipeline's coverage minus the base pipeline's, '%.2f' (null unless both have one), and the jobs it averages
    pipeline_coverage_delta: pipelines.coverage.delta,
    builds_with_coverage: pipelines.coverage.jobs,
    // 'You should run a new pipeline, because the target branch has changed for this merge request.'
    pipeline_retargeted_warning: warnings.retargeted,
    // merged results pipelines are on but the source is a fork: its pipelines run in the fork, on the head
    merge_pipelines_fork_warning: warnings.forkMergePipelines,
    squash: mr.squash,
    squash_on_merge: project.squash_option === 'always' ? true : project.squash_option === 'never' ? false : mr.squash,
    squash_enabled_by_default: project.squash_option === 'default_on' || project.squash_option === 'always',
    squash_readonly: project.squash_option === 'always' || project.squash_option === 'never',
    should_remove_source_branch: mr.should_remove_source_branch,
    force_remove_source_branch: mr.force_remove_source_branch,
    remove_source_branch: mr.should_remove_source_branch ?? mr.force_remove_source_branch,
    default_merge_commit_message: messages.merge,
    default_squash_commit_message: messages.squash,
    commits_count: mr.commits_count ?? 0,
    commits_without_merge_commits: commits.map((commit) => ({
      id: commit.id,
      short_id: commit.short_id,
      title: commit.title,
      message: commit.message,
      author_name: commit.author_name,
      authored_date: iso(commit.authored_date),
    })),
    merge_status: publicMergeStatus(mr.merge_status),
    detailed_merge_status: restDetailedMergeStatus(mergeability.detailedMergeStatus),
    mergeability_checks: mergeability.checks,
    mergeable: mergeability.detailedMergeStatus === 'MERGEABLE',
    has_conflicts: mr.merge_status === 'cannot_be_merged',
    diverged_commits_count: mergeability.divergedCommitsCount,
    rebase_in_progress: mr.rebase_in_progress,
    merge_ongoing: mergeOngoing,
    merge_error: mr.merge_error,
    merge_user: mergeUser,
    // auto-merge as GraphQL shows it (one rule: isAutoMergeSet, shownAutoMergeStrategy): a car is merge_train
    auto_merge_enabled: isAutoMergeSet(mr),
    auto_merge_strategy: autoMerge.strategy,
    available_auto_merge_strategies: autoMerge.available,
    merge_commit_sha: mr.merge_commit_sha,
    squash_commit_sha: mr.squash_commit_sha,
    merged_commit_sha: mergedSha,
    short_merged_commit_sha: mergedSha?.slice(0, 8) ?? null,
    merge_commit_path: mergedSha ? `/${mr.target_full_path}/-/commit/${mergedSha}` : null,
    retargeted: mr.retargeted,
    blocking_merge_requests: {
      total_count: blockers.visible.length + blockers.hiddenCount,
      hidden_count: blockers.hiddenCount,
      visible_merge_requests: blockers.visible.map(({ mergeRequest: blocker }) => ({
        id: blocker.id,
        iid: blocker.iid,
        title: blocker.title,
        state: blocker.state,
        web_url: urls.web(`${blocker.target_full_path}/-/merge_requests/${blocker.iid}`),
        reference: blocker.target_project_id === mr.target_project_id ? `!${blocker.iid}` : `${blocker.target_full_path}!${blocker.iid}`,
      })),
    },
    allow_collaboration: mr.allow_collaboration,
    human_access: accessLevel > 0 ? (ACCESS_LEVEL_NAMES[accessLevel] ?? null) : null,
    metrics: { merged_by: mergedBy, merged_at: iso(mr.merged_at), closed_by: closedBy, closed_at: iso(mr.closed_at) },
    current_user: {
      can_merge: permissions.canMerge,
      can_remove_source_branch: permissions.removeSourceBranch,
      can_push_to_source_branch: permissions.pushToSourceBranch,
      can_update_merge_request: permissions.updateMergeRequest,
      can_revert_on_current_merge_request: permissions.revertOnCurrentMergeRequest,
      can_cherry_pick_on_current_merge_request: permissions.cherryPickOnCurrentMergeRequest,
    },
  };
}
