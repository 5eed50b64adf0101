/**
 * The runner protocol domain: job requests with long polling, state updates, job tokens and
 * the stuck-jobs sweep. `app.ts` wires it; the REST routes are in api/rest/routes/runner-protocol/.
 */
import type { Database } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue.js';
import type { PipelineEngine } from '../pipelines/pipeline-engine.service.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import type { ProtectedTagsRepository } from '../protected-tags/protected-tags.repository.js';
import type { RunnersRepository } from '../runners/runners.repository.js';
import type { RunnersService } from '../runners/runners.service.js';
import type { UsersRepository } from '../users/users.repository.js';
import { createJobQueueSignal } from './job-queue-signal.js';
import { createRunnerJobsRepository } from './runner-jobs.repository.js';
import { createRunnerProtocol } from './runner-protocol.service.js';
import { createStuckJobs, STUCK_JOBS_JOB } from './stuck-jobs.js';

export { STUCK_JOBS_JOB };

export function createRunnerProtocolDomain(deps: {
  db: Database;
  queue: Pick<JobQueue, 'enqueue'>;
  runners: Pick<RunnersService, 'authenticate' | 'canPick'>;
  runnerRows: Pick<RunnersRepository, 'recordContact'>;
  pipelinesRepository: Pick<PipelinesRepository, 'findJob' | 'variables'>;
  engine: Pick<PipelineEngine, 'assignJob' | 'recordJobResult'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  protectedTags: Pick<ProtectedTagsRepository, 'listForProject'>;
  users: Pick<UsersRepository, 'findById'>;
  serverUrl: string;
  longPollSeconds?: number;
}) {
  const jobs = createRunnerJobsRepository(deps.db);
  const signal = createJobQueueSignal(deps.db);
  const runnerProtocol = createRunnerProtocol({
    runners: deps.runners,
    runnerRows: deps.runnerRows,
    jobs,
    pipelines: deps.pipelinesRepository,
    engine: deps.engine,
    protectedBranches: deps.protectedBranches,
    protectedTags: deps.protectedTags,
    users: deps.users,
    signal,
    serverUrl: deps.serverUrl,
    longPollSeconds: deps.longPollSeconds,
  });
  const stuckJobs = createStuckJobs({ db: deps.db, jobs, engine: deps.engine, queue: deps.queue });
  return { runnerProtocol, stuckJobs, jobQueueSignal: signal, runnerJobsRepository: jobs };
}
