/**
 * Pure rules for forks (GitLab's Projects::ForkService): what a fork is called and how
 * visible it may be.
 */
import type { Visibility } from '@tributary/contracts';
import { VISIBILITY_RANK as RANK } from '../namespaces/visibility-rules.js';

/**
 * A fork is never more visible than its source, nor than the group it lands in; a requested
 * visibility is lowered to that bound rather than refused (GitLab's target_visibility_level).
 */
export function forkVisibility(input: { requested?: Visibility; source: Visibility; namespace: Visibility | null }): Visibility {
  const bounds: Visibility[] = [input.source, ...(input.namespace ? [input.namespace] : []), ...(input.requested ? [input.requested] : [])];
  return bounds.reduce((lowest, next) => (RANK[next] < RANK[lowest] ? next : lowest));
}
