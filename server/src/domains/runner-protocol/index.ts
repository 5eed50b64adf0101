/**
 * The runner protocol domain: job requests with long polling, state updates, job tokens and
 * the stuck-jobs sweep. `app.ts` wires it; the REST routes are in api/rest/routes/runner-protocol/.
 */
import type { Database } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue.js';
import { maskSecrets } from '../ci-variables/mask-secrets.js';
import type { JobLogs } from '../job-logs/job-logs.service.js';
import type { JobRow } from '../pipelines/pipeline.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { ObjectStore } from '../../platform/storage/index.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { PipelineEngine } from '../pipelines/pipeline-engine.service.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import type { ProtectedTagsRepository } from '../protected-tags/protected-tags.repository.js';
import type { RunnersService } from '../runners/runners.service.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { StoredVariable } from './job-payload.js';
import { createJobArtifactsRepository } from './job-artifacts.repository.js';
import { createJobArtifacts } from './job-artifacts.service.js';
import { createJobErase } from './job-erase.service.js';
import { createJobQueueSignal } from './job-queue-signal.js';
import { createRunnerJobsRepository } from './runner-jobs.repository.js';
import { createRunnerProtocol } from './runner-protocol.service.js';
import { createStuckJobs, STUCK_JOBS_JOB } from './stuck-jobs.js';

export { STUCK_JOBS_JOB };

export function createRunnerProtocolDomain(deps: {
  db: Database;
  queue: Pick<JobQueue, 'enqueue'>;
  runners: Pick<RunnersService, 'authenticate' | 'canPick' | 'recordContact' | 'linkJobToManager' | 'heartbeatForJob'>;
  /** the largest artifact accepted, in bytes (the instance's max_artifacts_size) */
  maxArtifactsBytes?: () => Promise<number>;
  pipelinesRepository: Pick<PipelinesRepository, 'findJob' | 'findJobByTokenHash' | 'variables'>;
  engine: Pick<PipelineEngine, 'assignJob' | 'recordJobResult' | 'transitionJob'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  protectedTags: Pick<ProtectedTagsRepository, 'listForProject'>;
  users: Pick<UsersRepository, 'findById'>;
  jobLogs: JobLogs;
  objectStore: ObjectStore;
  pipelines: Pick<PipelinesService, 'job'>;
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize' | 'can' | 'accessLevel'>;
  /** the stored CI/CD variables a job receives (variablesForJob), in precedence order */
  storedVariables?: (job: JobRow, context: { protectedRef: boolean; fromFork: boolean }) => Promise<StoredVariable[]>;
  serverUrl: string;
  longPollSeconds?: number;
  /** told after a log chunk is stored (live job pages) */
  onLogAppended?: (job: JobRow, size: number) => Promise<void>;
}) {
  const jobs = createRunnerJobsRepository(deps.db);
  const artifactRows = createJobArtifactsRepository(deps.db);
  const signal = createJobQueueSignal(deps.db);
  const runnerProtocol = createRunnerProtocol({
    runners: deps.runners,
    jobs,
    pipelines: deps.pipelinesRepository,
    engine: deps.engine,
    protectedBranches: deps.protectedBranches,
    protectedTags: deps.protectedTags,
    users: deps.users,
    signal,
    jobLogs: deps.jobLogs,
    storedVariables: deps.storedVariables,
    archivesOf: (jobIds) => artifactRows.archivesOf(jobIds),
    serverUrl: deps.serverUrl,
    longPollSeconds: deps.longPollSeconds,
    onLogAppended: deps.onLogAppended,
    projects: deps.projects,
    authorizer: deps.authorizer,
  });
  const jobArtifacts = createJobArtifacts({
    artifacts: artifactRows,
    store: deps.objectStore,
    authenticateJob: (jobId, token) => runnerProtocol.authenticateJob(jobId, token),
    liveJobForToken: (token) => runnerProtocol.liveJobForToken(token),
    jobTokenIdentity: (token) => runnerProtocol.jobTokenIdentity(token),
    pipelines: deps.pipelines,
    projects: deps.projects,
    authorizer: deps.authorizer,
    maxBytes: deps.maxArtifactsBytes,
  });
  const jobErase = createJobErase({ pipelines: deps.pipelines, authorizer: deps.authorizer, artifacts: jobArtifacts, jobLogs: deps.jobLogs, jobs });
  const FINISHED = ['success', 'failed', 'canceled', 'skipped'];
  const stuckJobs = createStuckJobs({
    db: deps.db,
    jobs,
    engine: deps.engine,
    queue: deps.queue,
    removeExpiredArtifacts: () => jobArtifacts.removeExpired(),
    finalizeLeftLogs: () =>
      deps.jobLogs.finalizePending(
        async (jobId) => FINISHED.includes((await deps.pipelinesRepository.findJob(jobId))?.status ?? 'failed'),
        async (jobId) => {
          const job = await deps.pipelinesRepository.findJob(jobId);
          if (!job) return (log: Buffer) => log;
          const secrets = await runnerProtocol.secretsOf(job);
          return (log: Buffer) => Buffer.from(maskSecrets(log.toString('utf8'), secrets));
        },
      ),
  });
  return { runnerProtocol, jobArtifacts, jobErase, stuckJobs, jobQueueSignal: signal, runnerJobsRepository: jobs };
}
