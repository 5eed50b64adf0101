/**
 * The seam where CODEOWNERS plugs into approvals. A code owner rule is one CODEOWNERS entry
 * (a pattern in a section) that the merge request's changed files match, with its owners; it
 * requires approvals when the target branch requires code owner approval (otherwise it is shown
 * as optional). The approval state evaluates them like any other rule (type code_owner, listed
 * first), and a push with "remove only code owner approvals whose files changed" removes the
 * approvals of `approversForPaths`. `codeOwnersFrom` answers them from the code owners domain;
 * `noCodeOwners` answers none (tests that do not need git).
 */
import type { Project } from '../projects/project.js';
import type { MergeRequest } from '../merge-requests/merge-request.js';
import type { Queryable } from '../../platform/db/database.js';
import type { CodeOwnersService } from '../code-owners/code-owners.service.js';
import type { ApprovalsRepository } from './approvals.repository.js';

export interface CodeOwnerRule {
  /** the CODEOWNERS pattern, GitLab's rule name for code owner rules */
  name: string;
  /** the CODEOWNERS section ('codeowners' for the default section, as GitLab) */
  section: string;
  approvalsRequired: number;
  userIds: number[];
  groupIds: number[];
  /** the target branch is protected with "code owner approval required" */
  approvalRequired: boolean;
}

export interface CodeOwners {
  /** The code owner rules of the merge request's latest version. */
  codeOwnerRules(project: Project, mergeRequest: MergeRequest, tx?: Queryable): Promise<CodeOwnerRule[]>;
  /** Users who own any of `paths` on the merge request's target branch. */
  approversForPaths(project: Project, mergeRequest: MergeRequest, paths: readonly string[], tx?: Queryable): Promise<number[]>;
}

export const noCodeOwners: CodeOwners = {
  codeOwnerRules: async () => [],
  approversForPaths: async () => [],
};

/** The seam answered by the code owners domain (the target branch's CODEOWNERS, cached per commit). */
export function codeOwnersFrom(
  service: Pick<CodeOwnersService, 'mergeRequestRules' | 'rulesForPaths' | 'approvalRequired'>,
  repository: Pick<ApprovalsRepository, 'groupMemberIds'>,
): CodeOwners {
  return {
    async codeOwnerRules(project, mergeRequest, tx) {
      const rules = await service.mergeRequestRules(mergeRequest, tx);
      if (rules.length === 0) return [];
      const approvalRequired = await service.approvalRequired(project.id, mergeRequest.target_branch, tx);
      return rules.map((rule) => ({
        name: rule.name,
        section: rule.section,
        approvalsRequired: rule.approvalsRequired,
        userIds: rule.users.map((user) => user.id),
        groupIds: rule.groups.map((group) => group.id),
        approvalRequired,
      }));
    },

    async approversForPaths(_project, mergeRequest, paths, tx) {
      const rules = await service.rulesForPaths(mergeRequest.target_project_id, mergeRequest.target_branch, paths, tx);
      const groupIds = [...new Set(rules.flatMap((rule) => rule.groups.map((group) => group.id)))];
      const members = await repository.groupMemberIds(groupIds, tx);
      return [...new Set([...rules.flatMap((rule) => rule.users.map((user) => user.id)), ...groupIds.flatMap((id) => members.get(id) ?? [])])];
    },
  };
}
