import type { WidgetApprovalRule, WidgetUser } from '@tributary/contracts/merge-widget';

/** A user's numeric id from the GraphQL global id (`gid://gitlab/User/7` → 7). */
export function userIdOf(user: Pick<WidgetUser, 'id'>): number {
  return Number(user.id.slice(user.id.lastIndexOf('/') + 1));
}

/**
 * Whom 'Assign reviewers' offers: the eligible approvers of the rules still waiting for
 * approvals first (in rule order), then of the others, each once, without those already
 * reviewers and without the author (who is not asked to review their own change).
 */
export function reviewerCandidates(rules: readonly Pick<WidgetApprovalRule, 'approved' | 'eligibleApprovers'>[], reviewerIds: readonly number[], authorId: number | null): WidgetUser[] {
  const skip = new Set<number>(reviewerIds);
  if (authorId !== null) skip.add(authorId);
  const ordered = [...rules.filter((rule) => !rule.approved), ...rules.filter((rule) => rule.approved)];
  const candidates: WidgetUser[] = [];
  for (const rule of ordered) {
    for (const user of rule.eligibleApprovers) {
      const id = userIdOf(user);
      if (skip.has(id)) continue;
      skip.add(id);
      candidates.push(user);
    }
  }
  return candidates;
}
