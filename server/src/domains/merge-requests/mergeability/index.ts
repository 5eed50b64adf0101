/**
 * Mergeability: one module per merge check (checks/), one fold into `detailed_merge_status`
 * (fold.ts, its order documented there and in docs/merge-requests.md), the trial merge at
 * refs/merge-requests/:iid/merge (trial-merge.ts), and merge request dependencies.
 */
import type { Authorizer } from '../../../auth/authorizer.js';
import type { Database } from '../../../platform/db/database.js';
import type { EventBus } from '../../../platform/events.js';
import type { ProjectsService } from '../../projects/projects.service.js';
import type { RepositoryStorage } from '../../projects/repository-storage.js';
import type { MergeRequest } from '../merge-request.js';
import type { MergeRequestsRepository } from '../merge-requests.repository.js';
import type { HeadPipelineStatus } from './facts.js';
import { createMergeRequestBlocks } from './blocks.service.js';
import { createMergeabilityRepository } from './mergeability.repository.js';
import { createMergeability as createMergeabilityService } from './mergeability.service.js';

export type { CheckModule } from './checks/index.js';
export { assess, type Assessment } from './fold.js';
export { factsOf, type HeadPipelineStatus, type MergeabilityFacts, type MergeabilitySettings } from './facts.js';
export { pipelineInProgress, pipelinePasses } from './checks/ci-status.js';
export { publicMergeStatus, restDetailedMergeStatus } from './rest-names.js';
export { LEASE_SECONDS, type FreshGitFacts, type Mergeability, type MergeabilityResult } from './mergeability.service.js';
export { BlockingMergeRequestNotFoundError, type BlockingReference, type BlockView, type MergeRequestBlocks } from './blocks.service.js';
export type { MergeRequestBlock } from './mergeability.repository.js';

/**
 * The mergeability service: evaluate, evaluateMany, recheck, mergeRefCommit, markChecking,
 * publishChanged, onChanged, and `blocks` (merge request dependencies), over one repository.
 */
export function createMergeability(deps: {
  db: Database;
  mergeRequests: Pick<MergeRequestsRepository, 'findById' | 'findByIid' | 'usersByIds'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  events: Pick<EventBus, 'publishMany'>;
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'can'>;
  unresolvedDiscussions?: (mergeRequestIds: readonly number[]) => Promise<Map<number, number>>;
  headPipelineStatuses?: (mergeRequests: readonly MergeRequest[]) => Promise<Map<number, HeadPipelineStatus>>;
}) {
  const repository = createMergeabilityRepository(deps.db);
  const mergeability = createMergeabilityService({ ...deps, repository });
  const blocks = createMergeRequestBlocks({ db: deps.db, repository, mergeRequests: deps.mergeRequests, projects: deps.projects, authorizer: deps.authorizer, mergeability });
  return Object.assign(mergeability, { blocks });
}

export type MergeabilityService = ReturnType<typeof createMergeability>;
