/**
 * The one fold from the checks to `detailed_merge_status` (GitLab's
 * DetailedMergeStatusService), in this order:
 *
 *   1. NOT_OPEN     a closed or merged request, whatever its git cache says (never rechecked,
 *                   so a `checking` left on it would otherwise show for ever)
 *   2. PREPARING    open, and no version recorded yet (or merge_status `preparing`)
 *   3. CHECKING     the trial merge is running (merge_status checking, cannot_be_merged_rechecking)
 *   4. UNCHECKED    the trial merge is due (unchecked, cannot_be_merged_recheck)
 *   5. the first check of MERGE_CHECKS (checks/index.ts) that is FAILED names the status;
 *      one still CHECKING before it makes the whole CHECKING
 *   6. MERGEABLE
 *
 * Every check is still run and returned, so the page can show all that fail. Pure.
 */
import type { DetailedMergeStatus, MergeabilityCheck, MergeabilityCheckIdentifier } from '@tributary/contracts';
import type { MergeRequestState, MergeStatus } from '../merge-request.js';
import { MERGE_CHECKS, type CheckModule } from './checks/index.js';
import { runCheck } from './checks/check.js';
import type { MergeabilityFacts } from './facts.js';

// Every check identifier is also a detailed status (compile-time proof, no cast at run time).
const asStatus = (identifier: MergeabilityCheckIdentifier): DetailedMergeStatus => identifier;

export interface FoldInput {
  state: MergeRequestState;
  mergeStatus: MergeStatus;
  /** commits in the latest version; null before the first one */
  commitsCount: number | null;
  /** in MERGE_CHECKS order */
  checks: readonly MergeabilityCheck[];
}

const CHECKING: ReadonlySet<MergeStatus> = new Set(['checking', 'cannot_be_merged_rechecking']);
const UNCHECKED: ReadonlySet<MergeStatus> = new Set(['unchecked', 'cannot_be_merged_recheck']);

export function foldDetailedMergeStatus(input: FoldInput): DetailedMergeStatus {
  if (input.state === 'closed' || input.state === 'merged') return 'NOT_OPEN';
  if (input.commitsCount === null || input.mergeStatus === 'preparing') return 'PREPARING';
  if (CHECKING.has(input.mergeStatus)) return 'CHECKING';
  if (UNCHECKED.has(input.mergeStatus)) return 'UNCHECKED';
  for (const check of input.checks) {
    if (check.status === 'FAILED') return asStatus(check.identifier);
    if (check.status === 'CHECKING') return 'CHECKING';
  }
  return 'MERGEABLE';
}

export interface Assessment {
  detailedMergeStatus: DetailedMergeStatus;
  checks: MergeabilityCheck[];
}

/** Runs every check and folds them. */
export function assess(facts: MergeabilityFacts, checks: readonly CheckModule[] = MERGE_CHECKS): Assessment {
  const results = checks.map((check) => runCheck(check, facts));
  return {
    detailedMergeStatus: foldDetailedMergeStatus({ state: facts.state, mergeStatus: facts.mergeStatus, commitsCount: facts.commitsCount, checks: results }),
    checks: results,
  };
}
