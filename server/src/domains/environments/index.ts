/**
 * The environments domain: environments and deployments that follow pipeline jobs (a job
 * listener registered with the pipelines domain), the auto stop queue job, and the service
 * the REST API calls, and the merge widget's list of the environments a merge request reached. `app.ts` wires the listener and the queue job.
 */
import type { Authorizer } from '../../auth/authorizer.js';
import type { Database } from '../../platform/db/database.js';
import type { JobPayloadMap, JobQueue } from '../../platform/queue.js';
import type { PipelineEngine } from '../pipelines/pipeline-engine.service.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { AUTO_STOP_ENVIRONMENT_JOB, createDeploymentTracking } from './deployment-tracking.js';
import { createEnvironmentsRepository } from './environments.repository.js';
import { createEnvironmentsService } from './environments.service.js';
import { createMergeRequestEnvironments } from './merge-request-environments.js';
import { MAX_ROUTE_MAP_BYTES, parseRouteMap, ROUTE_MAP_PATH, type RouteMapEntry } from './route-map.js';
import { readBlobAt } from '../../git/tree.js';

export { AUTO_STOP_ENVIRONMENT_JOB };

export function createEnvironmentsDomain(deps: {
  db: Database;
  queue: Pick<JobQueue, 'enqueue'>;
  authorizer: Pick<Authorizer, 'authorize' | 'abilities'>;
  projects: Pick<ProjectsService, 'find'>;
  pipelines: Pick<PipelinesService, 'mayUpdateRef' | 'describeJobs'>;
  pipelinesRepository: PipelinesRepository;
  engine: Pick<PipelineEngine, 'playJob'>;
  repoPath: (projectId: number) => string;
  /** the paths a merge request's latest version changes (deleted files left out): its deployments' changed pages */
  changedPaths?: (mergeRequestId: number) => Promise<string[]>;
}) {
  /** The project's route map at a commit; none when absent, too large, unreadable or invalid (GitLab rescues its FormatError). */
  const routeMap = async (projectId: number, sha: string): Promise<RouteMapEntry[] | null> => {
    try {
      const blob = await readBlobAt(deps.repoPath(projectId), sha, ROUTE_MAP_PATH, { maxBytes: MAX_ROUTE_MAP_BYTES });
      if (!blob || blob.content.length > MAX_ROUTE_MAP_BYTES) return null;
      const parsed = parseRouteMap(blob.content.toString('utf8'));
      return parsed.ok ? parsed.entries : null;
    } catch {
      return null;
    }
  };
  const environmentsRepository = createEnvironmentsRepository(deps.db);
  const tracking = createDeploymentTracking({ environments: environmentsRepository, pipelines: deps.pipelinesRepository, queue: deps.queue });
  const environments = createEnvironmentsService({
    db: deps.db,
    projects: deps.projects,
    authorizer: deps.authorizer,
    environments: environmentsRepository,
    pipelines: deps.pipelines,
    pipelinesRepository: deps.pipelinesRepository,
    engine: deps.engine,
    repoPath: deps.repoPath,
  });
  const mergeRequestEnvironments = createMergeRequestEnvironments({
    projects: deps.projects,
    authorizer: deps.authorizer,
    environments: environmentsRepository,
    pipelines: deps.pipelines,
    pipelinesRepository: deps.pipelinesRepository,
    routeMap,
    changedPaths: deps.changedPaths,
  });
  return {
    environments,
    environmentsRepository,
    /** the environments a merge request's head or merge commit reached (the merge widget's deployments) */
    mergeRequestEnvironments,
    /** the listener to register with the pipelines domain (listenToJobs) */
    tracking,
    runAutoStop: (payload: JobPayloadMap[typeof AUTO_STOP_ENVIRONMENT_JOB]) => environments.autoStop(payload.environmentId),
  };
}
