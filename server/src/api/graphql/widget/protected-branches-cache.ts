import type { ProtectedBranchesRepository } from '../../../domains/protected-branches/protected-branches.repository.js';
import { cachedRead } from '../../../platform/db/cached-read.js';
import type { WriteWatch } from '../../../platform/db/write-watch.js';

/** What a project's rules are read from. */
export const PROTECTED_BRANCH_TABLES = ['protected_branches', 'protected_branch_access_levels'];

/**
 * Protected-branch rules for the widget's permission hints (canMerge, pushToSourceBranch,
 * removeSourceBranch), cached per project until a rule is written: they cost two queries
 * and change only when a Maintainer edits them. Merging, pushing and deleting branches
 * check the rules afresh in any case.
 */
export function cacheProtectedBranches(
  repository: Pick<ProtectedBranchesRepository, 'listForProject'>,
  watch: Pick<WriteWatch, 'generation'>,
  now?: () => number,
): Pick<ProtectedBranchesRepository, 'listForProject'> {
  return {
    listForProject: cachedRead(watch, (projectId: number) => repository.listForProject(projectId), {
      tables: PROTECTED_BRANCH_TABLES,
      key: String,
      copy: (rules) => rules.map((rule) => ({ ...rule })),
      now,
    }),
  };
}
