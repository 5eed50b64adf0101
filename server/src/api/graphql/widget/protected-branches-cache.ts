import type { ProtectedBranch } from '../../../domains/protected-branches/protected-branch.js';
import type { ProtectedBranchesRepository } from '../../../domains/protected-branches/protected-branches.repository.js';
import { Lru } from './lru.js';

/**
 * Protected-branch rules for the widget's permission hints (canMerge, pushToSourceBranch,
 * removeSourceBranch), cached per project for a few seconds: they cost two queries and change
 * only when a Maintainer edits them. The hints only choose which buttons to show; merging,
 * pushing and deleting branches check the rules afresh, so a button shown for a few seconds
 * after a rule changed at worst ends in the API's 403.
 */
export const PROTECTED_BRANCHES_TTL_MS = 5_000;

export function cacheProtectedBranches(
  repository: Pick<ProtectedBranchesRepository, 'listForProject'>,
  options: { ttlMs?: number; now?: () => number } = {},
): Pick<ProtectedBranchesRepository, 'listForProject'> {
  const ttl = options.ttlMs ?? PROTECTED_BRANCHES_TTL_MS;
  const now = options.now ?? (() => Date.now());
  const cache = new Lru<number, { at: number; rules: Promise<ProtectedBranch[]> }>(10_000);
  return {
    listForProject(projectId: number) {
      const hit = cache.get(projectId);
      if (hit && now() - hit.at < ttl) return hit.rules;
      const entry = { at: now(), rules: repository.listForProject(projectId) };
      cache.set(projectId, entry);
      entry.rules.catch(() => cache.get(projectId) === entry && cache.delete(projectId));
      return entry.rules;
    },
  };
}
