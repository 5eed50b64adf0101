import type { MergeRequestStateName } from '@tributary/contracts';
import { isAutoMergeSet } from '../../domains/auto-merge/rules.js';
import type { GitCommit } from '../../git/index.js';
import type { Project } from '../../domains/projects/project.js';
import type { User } from '../../domains/users/user.js';
import { publicMergeStatus } from '../../domains/merge-requests/mergeability/index.js';
import type { UrlBuilder } from '../rest/entities/users.js';
import { pipelineDetailedStatus } from '../../domains/pipelines/engine/detailed-status.js';
import { graphqlDetailedStatus } from './pipelines/detailed-status.js';
import { globalId, parseGlobalId } from './global-id.js';
import { mergeRequestEventType, pipelineEventTypeName, pipelinePath, pipelineWarnings } from './widget/pipeline-view.js';
import type { WidgetPipeline } from './widget/widget-model.js';
import type { MergeRequestNode, RequestScope } from './widget/request-scope.js';
import { subscriptionResolvers, type SubscriptionDeps } from './subscriptions.js';

/** What every resolver receives: the request's scope (see widget/request-scope.ts). */
export interface GraphqlContext {
  scope: RequestScope;
  /** keeps this answer out of the response cache (what it read is not watched) */
  noStore?: () => void;
}

type Resolver<P, A = Record<string, never>> = (parent: P, args: A, context: GraphqlContext) => unknown;

const iso = (date: Date | null) => date?.toISOString() ?? null;
const MERGE_METHODS = { merge: 'MERGE', rebase_merge: 'REBASE_MERGE', ff: 'FF' } as const;
/** An iid is a positive integer in a String! argument (GitLab's type); anything else names nothing. */
const parseIid = (iid: string) => (/^\d{1,9}$/.test(iid) && Number(iid) > 0 ? Number(iid) : null);
/** GitLab forces or forbids squashing per project; the checkbox is then read-only. */
const squashReadOnly = (project: Pick<Project, 'squash_option'>) => project.squash_option === 'always' || project.squash_option === 'never';

export function createResolvers(deps: { urls: UrlBuilder } & SubscriptionDeps) {
  const { urls } = deps;
  const view = (node: MergeRequestNode, ctx: GraphqlContext) => ctx.scope.view(node);
  const userOf = (id: number | null, ctx: GraphqlContext) => ctx.scope.user(id);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GraphQL arguments differ per field; each resolver types its own
  const Query: Record<string, Resolver<unknown, any>> = {
    currentUser: (_, __, ctx) => ctx.scope.actor.user,
    project: (_, args: { fullPath: string }, ctx) => ctx.scope.project(args.fullPath),
    mergeRequest: (_, args: { id: string }, ctx) => {
      const parsed = parseGlobalId(args.id, ['MergeRequest']);
      return parsed ? ctx.scope.mergeRequestById(parsed.id) : null;
    },
  };

  const UserCore: Record<string, Resolver<User>> = {
    id: (user) => globalId('User', user.id),
    webUrl: (user) => urls.web(user.username),
    webPath: (user) => `/${user.username}`,
    avatarUrl: () => null,
  };

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GraphQL arguments differ per field; each resolver types its own
  const Project: Record<string, Resolver<Project, any>> = {
    id: (project) => globalId('Project', project.id),
    fullPath: (project) => project.full_path,
    nameWithNamespace: (project) => project.full_name,
    webUrl: (project) => urls.web(project.full_path),
    mergeMethod: (project) => MERGE_METHODS[project.merge_method],
    mergeRequestsFfOnlyEnabled: (project) => project.merge_method === 'ff',
    onlyAllowMergeIfPipelineSucceeds: (project) => project.only_allow_merge_if_pipeline_succeeds,
    allowMergeOnSkippedPipeline: (project) => project.allow_merge_on_skipped_pipeline,
    ciCdSettings: (project) => ({ mergePipelinesEnabled: project.merge_pipelines_enabled, mergeTrainsEnabled: project.merge_trains_enabled, mergeTrainsSkipTrainAllowed: project.merge_trains_skip_train_allowed }),
    onlyAllowMergeIfAllDiscussionsAreResolved: (project) => project.only_allow_merge_if_all_discussions_are_resolved,
    removeSourceBranchAfterMerge: (project) => project.remove_source_branch_after_merge,
    squashOption: (project) => project.squash_option,
    squashReadOnly: (project) => squashReadOnly(project),
    mergeRequest: (project, args: { iid: string }, ctx) => {
      const iid = parseIid(args.iid);
      return iid === null ? null : ctx.scope.mergeRequest(project, iid);
    },
  };

  const mergeability = (node: MergeRequestNode, ctx: GraphqlContext) => view(node, ctx).mergeability();
  const permission = (name: keyof Awaited<ReturnType<ReturnType<RequestScope['view']>['permissions']>>) => (node: MergeRequestNode, _: unknown, ctx: GraphqlContext) =>
    view(node, ctx).permissions().then((permissions) => permissions[name]);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GraphQL arguments differ per field; each resolver types its own
  const MergeRequest: Record<string, Resolver<MergeRequestNode, any>> = {
    id: ({ mergeRequest }) => globalId('MergeRequest', mergeRequest.id),
    iid: ({ mergeRequest }) => String(mergeRequest.iid),
    title: ({ mergeRequest }) => mergeRequest.title,
    description: ({ mergeRequest }) => mergeRequest.description,
    state: ({ mergeRequest }): MergeRequestStateName => mergeRequest.state,
    draft: ({ mergeRequest }) => mergeRequest.draft,
    createdAt: ({ mergeRequest }) => iso(mergeRequest.created_at),
    updatedAt: ({ mergeRequest }) => iso(mergeRequest.updated_at),
    webUrl: ({ mergeRequest }) => urls.web(`${mergeRequest.target_full_path}/-/merge_requests/${mergeRequest.iid}`),
    webPath: ({ mergeRequest }) => `/${mergeRequest.target_full_path}/-/merge_requests/${mergeRequest.iid}`,
    reference: ({ mergeRequest }, args: { full?: boolean }) => (args.full ? `${mergeRequest.target_full_path}!${mergeRequest.iid}` : `!${mergeRequest.iid}`),
    projectId: ({ mergeRequest }) => mergeRequest.target_project_id,
    targetProjectId: ({ mergeRequest }) => mergeRequest.target_project_id,
    sourceProjectId: ({ mergeRequest }) => mergeRequest.source_project_id,
    project: ({ project }) => project,
    author: ({ mergeRequest }, _, ctx) => userOf(mergeRequest.author_id, ctx),
    sourceBranch: ({ mergeRequest }) => mergeRequest.source_branch,
    targetBranch: ({ mergeRequest }) => mergeRequest.target_branch,
    sourceBranchExists: async (node, _, ctx) => (await view(node, ctx).sourceTip()) !== null,
    targetBranchExists: async (node, _, ctx) => (await view(node, ctx).targetTip()) !== null,
    sourceBranchProtected: (node, _, ctx) => view(node, ctx).sourceBranchProtected(),
    diffHeadSha: ({ mergeRequest }) => mergeRequest.head_commit_sha,
    diffRefs: ({ mergeRequest: mr }) => (mr.head_commit_sha && mr.start_commit_sha ? { baseSha: mr.base_commit_sha, headSha: mr.head_commit_sha, startSha: mr.start_commit_sha } : null),
    mergeStatus: ({ mergeRequest }) => publicMergeStatus(mergeRequest.merge_status),
    detailedMergeStatus: async (node, _, ctx) => (await mergeability(node, ctx)).detailedMergeStatus,
    mergeabilityChecks: async (node, _, ctx) => (await mergeability(node, ctx)).checks,
    mergeable: async (node, _, ctx) => (await mergeability(node, ctx)).detailedMergeStatus === 'MERGEABLE',
    conflicts: ({ mergeRequest }) => mergeRequest.merge_status === 'cannot_be_merged',
    commitCount: ({ mergeRequest }) => mergeRequest.commits_count,
    commitsWithoutMergeCommits: async (node, _, ctx) => {
      const commits = await view(node, ctx).commitsWithoutMergeCommits();
      return { count: commits.length, nodes: commits.map((commit) => ({ commit, projectPath: node.mergeRequest.target_full_path })) };
    },
    defaultMergeCommitMessage: async (node, _, ctx) => (await view(node, ctx).commitMessages()).merge,
    defaultSquashCommitMessage: async (node, _, ctx) => (await view(node, ctx).commitMessages()).squash,
    shouldRemoveSourceBranch: ({ mergeRequest }) => mergeRequest.should_remove_source_branch,
    forceRemoveSourceBranch: ({ mergeRequest }) => mergeRequest.force_remove_source_branch,
    squash: ({ mergeRequest }) => mergeRequest.squash,
    // MergeRequest#squash_on_merge?: the project's "always" and "never" win over the request.
    squashOnMerge: ({ mergeRequest, project }) => (project.squash_option === 'always' ? true : project.squash_option === 'never' ? false : mergeRequest.squash),
    squashReadOnly: ({ project }) => squashReadOnly(project),
    divergedCommitsCount: async (node, _, ctx) => (await mergeability(node, ctx)).divergedCommitsCount,
    divergedFromTargetBranch: async (node, _, ctx) => (await mergeability(node, ctx)).divergedCommitsCount > 0,
    // Fast-forward and semi-linear projects both need a rebase when the target moved on (NEED_REBASE).
    shouldBeRebased: async (node, _, ctx) => (await mergeability(node, ctx)).checks.some((check) => check.identifier === 'NEED_REBASE' && check.status === 'FAILED'),
    rebaseInProgress: ({ mergeRequest }) => mergeRequest.rebase_in_progress,
    mergeOngoing: (node, _, ctx) => view(node, ctx).mergeOngoing(),
    mergeError: ({ mergeRequest }) => mergeRequest.merge_error,
    // GitLab: metrics.merged_by || merge_user.
    mergeUser: ({ mergeRequest }, _, ctx) => userOf(mergeRequest.merged_by_id ?? mergeRequest.merge_user_id, ctx),
    mergedAt: ({ mergeRequest }) => iso(mergeRequest.merged_at),
    mergeCommitSha: ({ mergeRequest }) => mergeRequest.merge_commit_sha,
    squashCommitSha: ({ mergeRequest }) => mergeRequest.squash_commit_sha,
    allowCollaboration: ({ mergeRequest }) => mergeRequest.allow_collaboration,
    retargeted: ({ mergeRequest }) => mergeRequest.retargeted,
    discussionLocked: ({ mergeRequest }) => mergeRequest.discussion_locked === true,
    mergedBy: ({ mergeRequest }, _, ctx) => userOf(mergeRequest.merged_by_id, ctx),
    closedBy: ({ mergeRequest }, _, ctx) => userOf(mergeRequest.closed_by_id, ctx),
    closedAt: ({ mergeRequest }) => iso(mergeRequest.closed_at),
    autoMergeEnabled: ({ mergeRequest }) => isAutoMergeSet(mergeRequest),
    autoMergeStrategy: async (node, _, ctx) => (await ctx.scope.autoMerge(node)).strategy,
    availableAutoMergeStrategies: async (node, _, ctx) => (await ctx.scope.autoMerge(node)).available,
    preferredAutoMergeStrategy: async (node, _, ctx) => (await ctx.scope.autoMerge(node)).preferred,
    blockingMergeRequests: async (node, _, ctx) => {
      const { visible, hiddenCount } = await view(node, ctx).blockers();
      return { count: visible.length, hiddenCount, totalCount: visible.length + hiddenCount, nodes: visible, visibleMergeRequests: visible };
    },
    userPermissions: (node) => node,
    headPipeline: async (node, _, ctx) => (await view(node, ctx).pipelines()).head,
    pipelineCoverageDelta: async (node, _, ctx) => (await view(node, ctx).pipelines()).coverage.delta,
    buildsWithCoverage: async (node, _, ctx) => (await view(node, ctx).pipelines()).coverage.jobs,
    pipelines: async (node, args: { first?: number }, ctx) => {
      const list = await ctx.scope.pipelines(node, Math.min(Math.max(args.first ?? 20, 0), 100));
      return list && { count: list.count, nodes: list.nodes };
    },
    hasCi: async (node, _, ctx) => (await view(node, ctx).pipelines()).hasCi,
    mergePipeline: (node, _, ctx) => ctx.scope.mergePipeline(node),
    mergePipelinesForkWarning: ({ mergeRequest, project }) =>
      pipelineWarnings({ mergePipelinesEnabled: project.merge_pipelines_enabled, retargeted: mergeRequest.retargeted, fromFork: mergeRequest.source_project_id !== mergeRequest.target_project_id }).forkMergePipelines,
    pipelineRetargetedWarning: ({ mergeRequest, project }) =>
      pipelineWarnings({ mergePipelinesEnabled: project.merge_pipelines_enabled, retargeted: mergeRequest.retargeted, fromFork: mergeRequest.source_project_id !== mergeRequest.target_project_id }).retargeted,
  };

  const Pipeline: Record<string, Resolver<WidgetPipeline>> = {
    id: ({ pipeline }) => globalId('Ci::Pipeline', pipeline.id),
    iid: ({ pipeline }) => String(pipeline.iid),
    sha: ({ pipeline }) => pipeline.sha,
    project: ({ project }) => project,
    ref: ({ pipeline }) => pipeline.ref,
    source: ({ pipeline }) => pipeline.source,
    status: ({ pipeline }) => pipeline.status.toUpperCase(),
    detailedStatus: (head) => {
      const status = pipelineDetailedStatus({ status: head.pipeline.status, warnings: head.warnings }, pipelinePath(head));
      return graphqlDetailedStatus(status, `${status.group}-${head.pipeline.id}`);
    },
    path: (head) => pipelinePath(head),
    active: ({ pipeline }) => ['waiting_for_resource', 'preparing', 'pending', 'running', 'canceling'].includes(pipeline.status),
    coverage: ({ pipeline }) => pipeline.coverage,
    createdAt: ({ pipeline }) => iso(pipeline.created_at),
    updatedAt: ({ pipeline }) => iso(pipeline.updated_at),
    finishedAt: ({ pipeline }) => iso(pipeline.finished_at),
    duration: ({ pipeline }) => pipeline.duration,
    mergeRequestEventType: ({ pipeline }) => mergeRequestEventType(pipeline)?.toUpperCase() ?? null,
    eventTypeName: ({ pipeline }) => pipelineEventTypeName(pipeline),
    stages: (head) => ({
      nodes: head.stages.map((stage) => {
        const status = pipelineDetailedStatus({ status: stage.status, warnings: false }, `${pipelinePath(head)}#${stage.name}`);
        return { id: globalId('Ci::Stage', stage.id), name: stage.name, status: stage.status, detailedStatus: graphqlDetailedStatus(status, `${status.group}-${stage.id}`) };
      }),
    }),
  };

  const MergeRequestPermissions: Record<string, Resolver<MergeRequestNode>> = Object.fromEntries(
    (['adminMergeRequest', 'canMerge', 'cherryPickOnCurrentMergeRequest', 'pushToSourceBranch', 'readMergeRequest', 'removeSourceBranch', 'revertOnCurrentMergeRequest', 'updateMergeRequest'] as const).map(
      (name) => [name, permission(name)],
    ),
  );

  const Commit: Record<string, Resolver<{ commit: GitCommit; projectPath: string }>> = {
    id: ({ commit }) => commit.id,
    sha: ({ commit }) => commit.id,
    shortId: ({ commit }) => commit.short_id,
    title: ({ commit }) => commit.title,
    message: ({ commit }) => commit.message,
    authorName: ({ commit }) => commit.author_name,
    authorEmail: ({ commit }) => commit.author_email,
    authoredDate: ({ commit }) => iso(commit.authored_date),
    committedDate: ({ commit }) => iso(commit.committed_date),
    webUrl: ({ commit, projectPath }) => urls.web(`${projectPath}/-/commit/${commit.id}`),
  };

  return {
    Query,
    Subscription: subscriptionResolvers(deps),
    Issuable: { resolveType: () => 'MergeRequest' },
    UserCore,
    Project,
    MergeRequest,
    MergeRequestPermissions,
    Commit,
    Pipeline,
  };
}
