import type { Database } from '../../platform/db/database.js';
import type { EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import type { JobQueue } from '../../platform/queue.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { createForksRepository } from '../forks/forks.repository.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import type { MetadataDeps } from './merge-request-metadata.js';
import { createMergeRequestChanges } from './merge-request-changes.service.js';
import { createMergeRequestDiffsRepository } from './merge-request-diffs.repository.js';
import { createMergeRequestVersions } from './merge-request-versions.service.js';
import { createMergeRequestViews, type DiscussionStats } from './merge-request-views.js';
import { createMergeRequestsRepository } from './merge-requests.repository.js';
import { createMergeRequestsService } from './merge-requests.service.js';
import { createDescriptionVersionsRepository } from '../description-versions/description-versions.repository.js';
import { createMergeability, type HeadPipelineStatus } from './mergeability/index.js';
import type { MergeRequest } from './merge-request.js';
import { cacheAccessLevels, cacheDiscussionStats, cacheMergeabilityReads, cacheMergeRequestReads, cacheMetadataReads } from './cached-reads.js';
import type { WriteWatch } from '../../platform/db/write-watch.js';

export { REFRESH_JOB } from './merge-request-versions.service.js';

/**
 * The merge request domain's services built from their repositories, for the composition
 * root (app.ts), which also registers the refresh job and the push subscription.
 */
export function createMergeRequestsDomain(deps: {
  db: Database;
  logger: Pick<Logger, 'warn'>;
  queue: Pick<JobQueue, 'enqueue'>;
  authorizer: Authorizer;
  projects: Pick<ProjectsService, 'find'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  events: Pick<EventBus, 'publish' | 'publishMany'>;
  /** unresolved threads per merge request (the notes domain), for DISCUSSIONS_NOT_RESOLVED */
  unresolvedDiscussions: (mergeRequestIds: readonly number[]) => Promise<Map<number, number>>;
  /** each merge request's pipeline status for its diff head (the pipelines domain), for CI_MUST_PASS and CI_STILL_RUNNING */
  headPipelineStatuses?: (mergeRequests: readonly MergeRequest[]) => Promise<Map<number, HeadPipelineStatus>>;
  /** votes and notes counts for the entity (the notes domain) */
  discussionStats: DiscussionStats;
  /** labels and milestones of merge requests (domains/labels/, domains/milestones/) */
  metadata?: Omit<MetadataDeps, 'mergeRequests'>;
  /** keeps the read paths' queries until a table they read is written (cached-reads.ts) */
  watch?: Pick<WriteWatch, 'generation'>;
}) {
  const { db, authorizer, storage } = deps;
  const mergeRequests = createMergeRequestsRepository(db, { events: deps.events });
  const diffs = createMergeRequestDiffsRepository(db);
  const mergeability = createMergeability({ db, mergeRequests, storage, events: deps.events, projects: deps.projects, authorizer, unresolvedDiscussions: deps.unresolvedDiscussions, headPipelineStatuses: deps.headPipelineStatuses });
  const versions = createMergeRequestVersions({ db, mergeRequests, diffs, storage, queue: deps.queue, logger: deps.logger, mergeability, events: deps.events });
  // Reads for GET …/merge_requests(/:iid) (open, list, the entity); writes go through the repository.
  const { watch } = deps;
  const reads = watch ? cacheMergeRequestReads(mergeRequests, watch) : mergeRequests;
  const service = createMergeRequestsService({
    db,
    mergeRequests: reads,
    forks: createForksRepository(db),
    projects: deps.projects,
    authorizer,
    storage,
    versions,
    mergeability,
    descriptionVersions: createDescriptionVersionsRepository(db),
    metadata: deps.metadata,
  });
  return {
    mergeRequests: service,
    mergeRequestChanges: createMergeRequestChanges({ service, diffs, mergeRequests, authorizer, storage }),
    mergeRequestViews: createMergeRequestViews(
      watch
        ? {
            mergeRequests: reads,
            authorizer: cacheAccessLevels(authorizer, watch),
            protectedBranches: deps.protectedBranches,
            mergeability: cacheMergeabilityReads(mergeability, watch),
            discussionStats: cacheDiscussionStats(deps.discussionStats, watch),
            metadata: deps.metadata && cacheMetadataReads(deps.metadata, watch),
          }
        : { mergeRequests, authorizer, protectedBranches: deps.protectedBranches, mergeability, discussionStats: deps.discussionStats, metadata: deps.metadata },
    ),
    mergeRequestVersions: versions,
    /** checks, detailed_merge_status, the trial merge (merge_ref) and dependencies (mergeability/) */
    mergeability,
    /** read access for the GraphQL layer's batched loaders */
    mergeRequestsRepository: mergeRequests,
  };
}
