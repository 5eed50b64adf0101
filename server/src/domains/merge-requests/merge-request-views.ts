import { actorFor, type Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import { canMergeIntoBranch } from '../protected-branches/push-rules.js';
import type { User } from '../users/user.js';
import type { Label } from '../labels/labels.repository.js';
import type { LabelsService } from '../labels/labels.service.js';
import type { Milestone } from '../milestones/milestones.repository.js';
import type { MilestonesService } from '../milestones/milestones.service.js';
import type { MergeRequest } from './merge-request.js';
import type { MergeRequestsRepository } from './merge-requests.repository.js';
import type { OpenedMergeRequest } from './merge-requests.service.js';
import type { MergeabilityResult, MergeabilityService } from './mergeability/index.js';

/** Everything the list entity shows about a merge request, loaded in a few batched queries. */
export interface MergeRequestView {
  mergeRequest: MergeRequest;
  author: User | null;
  assignees: User[];
  reviewers: User[];
  mergedBy: User | null;
  closedBy: User | null;
  mergeUser: User | null;
  /** the checks and detailed status (mergeability/); null while the project is being deleted */
  mergeability: MergeabilityResult | null;
  /** thumbsup and thumbsdown on the request itself */
  votes: { upvotes: number; downvotes: number };
  /** non-system notes; internal ones are not counted, so the number never reveals them */
  userNotesCount: number;
  labels: Label[];
  milestone: Milestone | null;
}

/** What the notes domain tells about merge requests, per id (supplied by app.ts). */
export interface DiscussionStats {
  votes(mergeRequestIds: readonly number[]): Promise<Map<number, { upvotes: number; downvotes: number }>>;
  userNotesCounts(mergeRequestIds: readonly number[], options: { includeInternal: boolean }): Promise<Map<number, number>>;
}

/** The single merge request entity adds what depends on the caller. */
export interface MergeRequestDetail extends MergeRequestView {
  canMerge: boolean;
  firstContribution: boolean;
  /** the requests that block this one: those the caller may see, and how many it may not */
  blockingMergeRequests: { visible: MergeRequest[]; hiddenCount: number };
}

/** Labels and milestones as the entity shows them (domains/labels/, domains/milestones/). */
export interface MergeRequestViewsMetadata {
  labels: Pick<LabelsService, 'forMergeRequests'>;
  milestones: Pick<MilestonesService, 'byIds'>;
}

export function createMergeRequestViews(deps: {
  mergeRequests: Pick<MergeRequestsRepository, 'assignees' | 'reviewers' | 'usersByIds' | 'authorHasMerged'>;
  authorizer: Pick<Authorizer, 'accessLevel' | 'can'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  mergeability: Pick<MergeabilityService, 'evaluateMany'> & { blocks: Pick<MergeabilityService['blocks'], 'visibleBlockers'> };
  discussionStats: DiscussionStats;
  metadata?: MergeRequestViewsMetadata;
}) {
  async function views(list: MergeRequest[]): Promise<MergeRequestView[]> {
    const ids = list.map((mr) => mr.id);
    const userIds = list.flatMap((mr) => [mr.author_id, mr.merged_by_id, mr.closed_by_id, mr.merge_user_id]).filter((id): id is number => id !== null);
    const milestoneIds = [...new Set(list.map((mr) => mr.milestone_id).filter((id): id is number => id !== null))];
    const [assignees, reviewers, users, mergeability, votes, notesCounts, labels, milestones] = await Promise.all([
      deps.mergeRequests.assignees(ids),
      deps.mergeRequests.reviewers(ids),
      deps.mergeRequests.usersByIds(userIds),
      deps.mergeability.evaluateMany(list),
      deps.discussionStats.votes(ids),
      deps.discussionStats.userNotesCounts(ids, { includeInternal: false }),
      deps.metadata?.labels.forMergeRequests(ids) ?? new Map<number, Label[]>(),
      deps.metadata?.milestones.byIds(milestoneIds) ?? new Map<number, Milestone>(),
    ]);
    const user = (id: number | null) => (id === null ? null : (users.get(id) ?? null));
    return list.map((mergeRequest) => ({
      mergeRequest,
      author: user(mergeRequest.author_id),
      assignees: assignees.get(mergeRequest.id) ?? [],
      reviewers: reviewers.get(mergeRequest.id) ?? [],
      mergedBy: user(mergeRequest.merged_by_id),
      closedBy: user(mergeRequest.closed_by_id),
      mergeUser: user(mergeRequest.merge_user_id),
      mergeability: mergeability.get(mergeRequest.id) ?? null,
      votes: votes.get(mergeRequest.id) ?? { upvotes: 0, downvotes: 0 },
      userNotesCount: notesCounts.get(mergeRequest.id) ?? 0,
      labels: labels.get(mergeRequest.id) ?? [],
      milestone: mergeRequest.milestone_id === null ? null : (milestones.get(mergeRequest.milestone_id) ?? null),
    }));
  }

  /** May the caller merge into the target branch: the one rule, canMergeIntoBranch (GitLab's can_be_merged_by?). */
  async function canMerge(actor: Actor, opened: OpenedMergeRequest): Promise<boolean> {
    const user = actor.user;
    if (!user) return false;
    const [protections, accessLevel] = await Promise.all([deps.protectedBranches.listForProject(opened.project.id), deps.authorizer.accessLevel(actor, { project: opened.project })]);
    return canMergeIntoBranch({ userId: user.id, isAdmin: user.is_admin, accessLevel }, opened.mergeRequest.target_branch, protections, opened.project.archived);
  }

  /** GitLab: the author is not a member of the target project and has had nothing merged there. */
  async function firstContribution(author: User | null, opened: OpenedMergeRequest): Promise<boolean> {
    if (!author) return false;
    const level = await deps.authorizer.accessLevel(actorFor(author, 'session'), { project: opened.project });
    return level === 0 && !(await deps.mergeRequests.authorHasMerged(author.id, opened.project.id));
  }

  return {
    views,
    async detail(actor: Actor, opened: OpenedMergeRequest): Promise<MergeRequestDetail> {
      const [view] = await views([opened.mergeRequest]);
      const [merge, first, blocking] = await Promise.all([canMerge(actor, opened), firstContribution(view!.author, opened), deps.mergeability.blocks.visibleBlockers(actor, opened)]);
      return { ...view!, canMerge: merge, firstContribution: first, blockingMergeRequests: blocking };
    },
  };
}

export type MergeRequestViews = ReturnType<typeof createMergeRequestViews>;
