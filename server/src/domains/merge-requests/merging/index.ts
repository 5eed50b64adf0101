/**
 * Merging and rebasing merge requests, built from their dependencies for the composition
 * root (app.ts), which registers the rebase job; server.ts runs `reconcileMerges()` on start,
 * before it serves requests.
 */
import type { Database } from '../../../platform/db/database.js';
import type { EventBus } from '../../../platform/events.js';
import type { Logger } from '../../../platform/logger.js';
import type { JobQueue } from '../../../platform/queue.js';
import type { Authorizer } from '../../../auth/authorizer.js';
import type { Collaboration } from '../collaboration.service.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import type { RepositoryStorage } from '../../projects/repository-storage.js';
import type { ProtectedBranchesRepository } from '../../protected-branches/protected-branches.repository.js';
import type { PushesService } from '../../pushes/pushes.service.js';
import type { MergeRequestVersions } from '../merge-request-versions.service.js';
import type { MergeabilityService } from '../mergeability/index.js';
import { createMergeRequestsRepository } from '../merge-requests.repository.js';
import type { MergeRequestsService } from '../merge-requests.service.js';
import { createMergeSettlement } from './merge-settlement.js';
import { createMergeService } from './merge.service.js';
import { noSteps, type StepHook } from './merge-steps.js';
import { createMergingRepository } from './merging.repository.js';
import { createRebaseService } from './rebase.service.js';

export { REBASE_JOB } from './rebase.service.js';
export { POST_MERGE_JOB } from './merge-settlement.js';
export { crashHook, MERGE_STEPS, type MergeStep, type StepHook } from './merge-steps.js';
export type { MergeInput } from './merge.service.js';

export function createMergingDomain(deps: {
  db: Database;
  logger: Pick<Logger, 'warn' | 'info'>;
  queue: Pick<JobQueue, 'enqueue'>;
  events: Pick<EventBus, 'publish'>;
  authorizer: Authorizer;
  projects: Pick<ProjectsRepository, 'findById'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  pushes: Pick<PushesService, 'postReceive'>;
  mergeRequestsService: Pick<MergeRequestsService, 'open'>;
  versions: Pick<MergeRequestVersions, 'recordOrSchedule'>;
  mergeability: Pick<MergeabilityService, 'evaluate' | 'recheck'>;
  /** for %{url} in commit templates */
  externalUrl: string;
  /** test-only: called at each step of a merge (merge-steps.ts) */
  onStep?: StepHook;
  /** merge requests allowing collaboration open their fork branch to the target's mergers (rebase) */
  collaboration?: Pick<Collaboration, 'branchesFor'>;
}) {
  const repository = createMergingRepository(deps.db, deps.db.sessionName);
  const mergeRequests = createMergeRequestsRepository(deps.db, { events: deps.events });
  const settlement = createMergeSettlement({ ...deps, repository, mergeRequests });
  const merging = createMergeService({ ...deps, repository, settlement, mergeRequests, onStep: deps.onStep ?? noSteps });
  const rebasing = createRebaseService({ ...deps, repository, mergeRequests });
  return {
    merging,
    rebasing,
    mergeIntents: repository,
    /** merge trains merge through the same intents and finalize (domains/merge-trains/) */
    mergeSettlement: settlement,
    /** Settles every merge whose process died before finishing it (see merge-settlement.ts): on start, and every few seconds. */
    reconcileMerges: () => settlement.reconcileAll(),
    /** The POST_MERGE_JOB handler. */
    runPostMergeJob: (payload: { intentId: number }) => settlement.runPostMergeJob(payload),
  };
}

export type MergingDomain = ReturnType<typeof createMergingDomain>;
