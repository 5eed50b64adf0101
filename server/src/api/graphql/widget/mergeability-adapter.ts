import {
  DETAILED_MERGE_STATUSES,
  MERGEABILITY_CHECK_IDENTIFIERS,
  MERGEABILITY_CHECK_STATUSES,
  type DetailedMergeStatus,
  type MergeabilityCheck,
} from '@tributary/contracts';
import type { MergeRequest } from '../../../domains/merge-requests/merge-request.js';
import type { Project } from '../../../domains/projects/project.js';

/**
 * What the widget needs from the mergeability checks: the domain's check modules
 * (`mergeRequestsDomain.mergeability`, GitLab's mergeability framework) answer it. The answer
 * passes through `normalizeMergeability`, so the GraphQL enums hold whatever the domain adds.
 */
export interface MergeabilityEvaluation {
  detailedMergeStatus: string;
  checks: ReadonlyArray<{ identifier: string; status: string }>;
  divergedCommitsCount: number;
  mergeRefSha: string | null;
}

export interface MergeabilitySource {
  evaluate(mergeRequest: MergeRequest, project: Project): Promise<MergeabilityEvaluation> | MergeabilityEvaluation;
}

export interface WidgetMergeability {
  detailedMergeStatus: DetailedMergeStatus;
  checks: MergeabilityCheck[];
  divergedCommitsCount: number;
  mergeRefSha: string | null;
}

const STATUSES = new Set<string>(DETAILED_MERGE_STATUSES);
const IDENTIFIERS = new Set<string>(MERGEABILITY_CHECK_IDENTIFIERS);
const CHECK_STATUSES = new Set<string>(MERGEABILITY_CHECK_STATUSES);
/** GitLab's REST names for two statuses whose GraphQL names differ. */
const REST_ALIASES: Record<string, DetailedMergeStatus> = { MERGE_REQUEST_BLOCKED: 'BLOCKED_STATUS', STATUS_CHECKS_MUST_PASS: 'EXTERNAL_STATUS_CHECKS' };

/**
 * The evaluation in GraphQL spelling (REST's lower-case names upper-cased). A status or check
 * this schema does not know yet is reported as UNCHECKED / left out rather than failing the
 * whole widget query: later issues add checks to the domain before they add them here. Pure.
 */
export function normalizeMergeability(evaluation: MergeabilityEvaluation): WidgetMergeability {
  const upper = evaluation.detailedMergeStatus.toUpperCase();
  const status = REST_ALIASES[upper] ?? (STATUSES.has(upper) ? (upper as DetailedMergeStatus) : 'UNCHECKED');
  const checks = evaluation.checks
    .map((check) => ({ identifier: check.identifier.toUpperCase(), status: check.status.toUpperCase() }))
    .filter((check): check is MergeabilityCheck => IDENTIFIERS.has(check.identifier) && CHECK_STATUSES.has(check.status));
  return { detailedMergeStatus: status, checks, divergedCommitsCount: evaluation.divergedCommitsCount, mergeRefSha: evaluation.mergeRefSha };
}
