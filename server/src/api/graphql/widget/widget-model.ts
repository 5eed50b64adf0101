/**
 * The widget's shared types: what a request scope reads (RequestScope, made by request-scope.ts),
 * the derived view of one merge request (MergeRequestView, made by merge-request-view.ts), and the
 * dependencies both are built from. Types only, so the two makers need not import each other.
 */
import type { AutoMergeState } from '../../../domains/auto-merge/index.js';
import type { Actor } from '../../../auth/actor.js';
import type { Authorizer } from '../../../auth/authorizer.js';
import type { ProjectAction } from '../../../auth/permissions.js';
import type { GitCommit } from '../../../git/index.js';
import type { MergeRequest, OpenedMergeRequest } from '../../../domains/merge-requests/merge-request.js';
import type { MergeRequestsRepository } from '../../../domains/merge-requests/merge-requests.repository.js';
import type { PipelineRow, StageRow } from '../../../domains/pipelines/pipeline.js';
import type { Project } from '../../../domains/projects/project.js';
import type { ProjectsService } from '../../../domains/projects/projects.service.js';
import type { ProtectedBranch } from '../../../domains/protected-branches/protected-branch.js';
import type { ProtectedBranchesRepository } from '../../../domains/protected-branches/protected-branches.repository.js';
import type { User } from '../../../domains/users/user.js';
import type { GitFacts } from './git-facts.js';
import type { MergeabilitySource, WidgetMergeability } from './mergeability-adapter.js';
import type { WidgetPermissions } from './widget-permissions.js';

/** A merge request the caller may read, with the (target) project it was read through. */
export interface MergeRequestNode {
  mergeRequest: MergeRequest;
  project: Project;
}

/** A pipeline as the widget shows it: the row, the project it ran in, its stages, whether it has allowed failures. */
export interface WidgetPipeline {
  pipeline: PipelineRow;
  project: Project;
  stages: StageRow[];
  warnings: boolean;
}

export interface WidgetPipelines {
  head: WidgetPipeline | null;
  hasCi: boolean;
  /** the head pipeline's coverage against the base pipeline's (pipeline_coverage_delta) and its jobs with a coverage */
  coverage: { delta: string | null; jobs: { name: string; coverage: number }[] };
}

export interface WidgetDeps {
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'abilities' | 'accessLevel'>;
  mergeRequests: Pick<MergeRequestsRepository, 'findByIid' | 'findById' | 'usersByIds'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  gitFacts: GitFacts;
  mergeability: MergeabilitySource;
  /** merge request dependencies the caller may see (BLOCKED_STATUS), and how many it may not */
  blockers(actor: Actor, opened: OpenedMergeRequest): Promise<{ visible: MergeRequest[]; hiddenCount: number }>;
  /** a merge of the request is under way (its intent recorded, not yet settled) */
  mergeOngoing(mergeRequestId: number): Promise<boolean>;
  /**
   * The merge request's pipeline for its diff head, when the caller may read it, and whether the
   * request has any pipeline at all (GitLab's has_ci?) (the pipelines domain).
   */
  pipelines(actor: Actor, node: MergeRequestNode): Promise<WidgetPipelines>;
  /** the target branch's pipeline for the commit a merged request landed as (GitLab's merge_pipeline); null: none, or unreadable */
  mergePipeline(actor: Actor, node: MergeRequestNode, sha: string): Promise<WidgetPipeline | null>;
  /** the merge request's pipelines, newest merge request pipelines first; null when the caller may not read pipelines */
  pipelineList(actor: Actor, node: MergeRequestNode, limit: number): Promise<{ count: number; nodes: WidgetPipeline[] } | null>;
  /** auto-merge: the setting, and the strategies the caller could set now (domains/auto-merge/) */
  autoMerge(actor: Actor, node: MergeRequestNode): Promise<AutoMergeState>;
  /** the merge and squash commit messages a merge by `merger` would use (project templates) */
  commitMessages(input: { mergeRequest: MergeRequest; project: Project; author: User | null; merger: User | null; target: string | null; head: string | null }): Promise<{ merge: string; squash: string }>;
}

/**
 * Everything one request (a GraphQL operation, one subscription delivery, or one REST widget
 * call) reads, memoised for that request: a project, a merge request or the caller's
 * abilities are loaded once however many fields ask, and users are fetched in one batch.
 * Every read goes through the projects service and the one authorizer, so what the caller
 * may not see is null here, never an error that tells it exists.
 */
export interface RequestScope {
  actor: Actor;
  project(idOrPath: number | string): Promise<Project | null>;
  abilities(project: Project): Promise<ReadonlySet<ProjectAction>>;
  /** the caller's effective access level (0 for anonymous callers and non-members) */
  accessLevel(project: Project): Promise<number>;
  mergeRequest(project: Project, iid: number): Promise<MergeRequestNode | null>;
  mergeRequestById(id: number): Promise<MergeRequestNode | null>;
  user(id: number | null): Promise<User | null>;
  protectedBranches(projectId: number): Promise<ProtectedBranch[]>;
  view(node: MergeRequestNode): MergeRequestView;
  /** the merge request's pipelines (MergeRequest.pipelines); null when the caller may not read pipelines */
  pipelines(node: MergeRequestNode, limit: number): Promise<{ count: number; nodes: WidgetPipeline[] } | null>;
  /** the post-merge pipeline of a merged request (MergeRequest.mergePipeline) */
  mergePipeline(node: MergeRequestNode): Promise<WidgetPipeline | null>;
  /** the auto-merge setting and the strategies the caller could set (MergeRequest.autoMerge* fields) */
  autoMerge(node: MergeRequestNode): Promise<AutoMergeState>;
}

/**
 * The derived parts of one merge request as the widget shows them, each computed on first
 * use and then shared by every field that needs it (GraphQL resolves only what the query
 * selects; the REST widget endpoint asks for all of it).
 */
export interface MergeRequestView {
  sourceTip(): Promise<string | null>;
  targetTip(): Promise<string | null>;
  mergeability(): Promise<WidgetMergeability>;
  commitsWithoutMergeCommits(): Promise<GitCommit[]>;
  sourceBranchProtected(): Promise<boolean>;
  permissions(): Promise<WidgetPermissions>;
  /** the blocking merge requests the caller may see, and how many it may not */
  blockers(): Promise<{ visible: MergeRequestNode[]; hiddenCount: number }>;
  mergeOngoing(): Promise<boolean>;
  /** the default merge and squash commit messages, from the project's templates */
  commitMessages(): Promise<{ merge: string; squash: string }>;
  /** the merge request's pipeline for its diff head (null: none, or the caller may not read pipelines), and has_ci */
  pipelines(): Promise<WidgetPipelines>;
  /** the commit a merged request landed as: merge commit, squash commit, or the fast-forwarded head */
  mergedCommitSha: string | null;
}
