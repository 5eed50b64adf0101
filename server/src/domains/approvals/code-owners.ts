/**
 * The seam where CODEOWNERS plugs into approvals. A code owner rule is one CODEOWNERS entry
 * (a pattern in a section) that the merge request's changed files match, with its owners; it
 * requires approvals when the target branch requires code owner approval. Until the CODEOWNERS
 * parser exists, `noCodeOwners` answers none, and everything else already takes its rules:
 * the approval state evaluates them like any other rule (type code_owner, listed first), and a
 * push with "remove only code owner approvals whose files changed" removes the approvals of
 * `approversForPaths`.
 */
import type { Project } from '../projects/project.js';
import type { MergeRequest } from '../merge-requests/merge-request.js';

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
  codeOwnerRules(project: Project, mergeRequest: MergeRequest): Promise<CodeOwnerRule[]>;
  /** Users who own any of `paths` on the merge request's target branch. */
  approversForPaths(project: Project, mergeRequest: MergeRequest, paths: readonly string[]): Promise<number[]>;
}

export const noCodeOwners: CodeOwners = {
  codeOwnerRules: async () => [],
  approversForPaths: async () => [],
};
