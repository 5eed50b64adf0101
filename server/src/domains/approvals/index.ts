/**
 * Merge request approvals: rules (approval-rules.service.ts), settings with their cascade
 * (approval-settings*.ts), the state (approval-state.ts, pure; approval-loader.ts reads its
 * facts), approving (approvals.service.ts), reviews (reviews.service.ts) and what pushes and new
 * merge requests do to them (approval-reactions.ts). docs/approvals.md.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Database } from '../../platform/db/database.js';
import type { ApprovalFacts as MergeabilityApprovalFacts, Mergeability } from '../merge-requests/mergeability/index.js';
import type { MergeRequest } from '../merge-requests/merge-request.js';
import type { MergeRequestsRepository } from '../merge-requests/merge-requests.repository.js';
import type { MergeRequestsService } from '../merge-requests/merge-requests.service.js';
import type { GroupsService } from '../namespaces/groups.service.js';
import type { Namespace } from '../namespaces/namespace.js';
import type { NamespacesRepository } from '../namespaces/namespaces.repository.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { UsersRepository } from '../users/users.repository.js';
import { createApprovalLoader } from './approval-loader.js';
import { createApprovalReactions } from './approval-reactions.js';
import { createApprovalRulesService } from './approval-rules.service.js';
import { createApprovalSettingsService } from './approval-settings.service.js';
import { createApprovalsRepository } from './approvals.repository.js';
import { createApprovalsService } from './approvals.service.js';
import { codeOwnersFrom, noCodeOwners, type CodeOwners } from './code-owners.js';
import type { CodeOwnersService } from '../code-owners/code-owners.service.js';
import { createReviewsService } from './reviews.service.js';

export { APPROVAL_PASSWORD_INVALID, type ApprovalView } from './approvals.service.js';
export { COMMITTER_CANNOT_APPROVE, WHY_CANT_I_APPROVE, type EvaluatedRule } from './approval-state.js';
export { APPROVAL_SETTING_KEYS, type ResolvedApprovalSettings } from './approval-settings.js';
export { COVERAGE_CHECK_DESCRIPTION, type MergeRequestApprovalRule, type ProjectApprovalRule, type ReviewerState } from './approval-rule.js';
export type { CodeOwnerRule, CodeOwners } from './code-owners.js';

export function createApprovalsDomain(deps: {
  db: Database;
  authorizer: Authorizer;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  projects: Pick<ProjectsService, 'find'>;
  projectRows: Pick<ProjectsRepository, 'findById'>;
  groups: Pick<GroupsService, 'find'>;
  namespaces: Pick<NamespacesRepository, 'findById'>;
  users: Pick<UsersRepository, 'findById' | 'findByUsername'>;
  mergeRequestsService: Pick<MergeRequestsService, 'open'>;
  mergeRequests: Pick<MergeRequestsRepository, 'recordEvent' | 'findById' | 'usersByIds'>;
  mergeability: Pick<Mergeability, 'publishChanged'>;
  /** CODEOWNERS files and their owners (the code owners domain); without it, no code owner rules */
  codeOwnerFiles?: Pick<CodeOwnersService, 'mergeRequestRules' | 'rulesForPaths' | 'approvalRequired'>;
  /** a seam answered otherwise (tests) */
  codeOwners?: CodeOwners;
}) {
  const repository = createApprovalsRepository(deps.db);
  const codeOwners = deps.codeOwners ?? (deps.codeOwnerFiles ? codeOwnersFrom(deps.codeOwnerFiles, repository) : noCodeOwners);
  const loader = createApprovalLoader({ repository, storage: deps.storage, codeOwners });
  const groupVisible = (actor: Actor, groupId: number) => deps.groups.find(actor, groupId).then(
    () => true,
    () => false,
  );
  const approvals = createApprovalsService({ ...deps, repository, loader, groupVisible });
  const rules = createApprovalRulesService({ ...deps, repository, loader });
  const settings = createApprovalSettingsService({ ...deps, repository, loader });
  const reviews = createReviewsService({ ...deps, repository, approvals });
  const reactions = createApprovalReactions({ ...deps, projects: deps.projectRows, repository, loader, codeOwners });

  /**
   * NOT_APPROVED and REQUESTED_CHANGES facts for a page of merge requests: one query tells
   * which could need an approval at all; only those are evaluated in full.
   */
  async function mergeabilityFacts(mergeRequests: readonly MergeRequest[]): Promise<Map<number, MergeabilityApprovalFacts>> {
    const ids = mergeRequests.map((mr) => mr.id);
    const [candidates, reviewers] = await Promise.all([repository.mayNeedApproval(ids), repository.reviewerStates(ids)]);
    const result = new Map<number, MergeabilityApprovalFacts>();
    for (const mergeRequest of mergeRequests) {
      const states = reviewers.get(mergeRequest.id) ?? [];
      const facts = { approvalNeeded: false, approved: true, hasReviewers: states.length > 0, changesRequested: states.some((reviewer) => reviewer.state === 'requested_changes') };
      if (candidates.has(mergeRequest.id)) {
        const project = await deps.projectRows.findById(mergeRequest.target_project_id);
        if (project) {
          const { state } = await loader.load(project, mergeRequest);
          facts.approvalNeeded = state.approvalNeeded;
          facts.approved = state.approved;
        }
      }
      result.set(mergeRequest.id, facts);
    }
    return result;
  }

  /**
   * What the API's entities name by id: users, groups (with their members, and which the caller
   * may not see), the project's protected branches.
   */
  async function lookups(actor: Actor, scope: { userIds: Iterable<number>; groupIds: Iterable<number>; projectId: number }) {
    const groupIds = [...new Set(scope.groupIds)];
    const [groupMembers, branches] = await Promise.all([repository.groupMemberIds(groupIds), repository.protectedBranches(scope.projectId)]);
    const userIds = [...new Set([...scope.userIds, ...[...groupMembers.values()].flat()])];
    const users = await deps.mergeRequests.usersByIds(userIds);
    const groups = new Map<number, Namespace>();
    const hiddenGroups = new Set<number>();
    for (const id of groupIds) {
      const found = await deps.namespaces.findById(id);
      if (found) groups.set(id, found);
      if (!(await groupVisible(actor, id))) hiddenGroups.add(id);
    }
    return { users, groups, groupMembers, protectedBranches: new Map(branches.map((branch) => [branch.id, branch])), hiddenGroups };
  }

  return { repository, codeOwners, loader, approvals, rules, settings, reviews, reactions, mergeabilityFacts, lookups };
}

export type ApprovalsDomain = ReturnType<typeof createApprovalsDomain>;
