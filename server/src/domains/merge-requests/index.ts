import type { Database } from '../../platform/db/database.js';
import type { Logger } from '../../platform/logger.js';
import type { JobQueue } from '../../platform/queue.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { createForksRepository } from '../forks/forks.repository.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import { createMergeRequestChanges } from './merge-request-changes.service.js';
import { createMergeRequestDiffsRepository } from './merge-request-diffs.repository.js';
import { createMergeRequestVersions } from './merge-request-versions.service.js';
import { createMergeRequestViews } from './merge-request-views.js';
import { createMergeRequestsRepository } from './merge-requests.repository.js';
import { createMergeRequestsService } from './merge-requests.service.js';

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
}) {
  const { db, authorizer, storage } = deps;
  const mergeRequests = createMergeRequestsRepository(db);
  const diffs = createMergeRequestDiffsRepository(db);
  const versions = createMergeRequestVersions({ db, mergeRequests, diffs, storage, queue: deps.queue, logger: deps.logger });
  const service = createMergeRequestsService({ db, mergeRequests, forks: createForksRepository(db), projects: deps.projects, authorizer, storage, versions });
  return {
    mergeRequests: service,
    mergeRequestChanges: createMergeRequestChanges({ service, diffs, mergeRequests, authorizer, storage }),
    mergeRequestViews: createMergeRequestViews({ mergeRequests, authorizer, protectedBranches: deps.protectedBranches, storage }),
    mergeRequestVersions: versions,
  };
}
