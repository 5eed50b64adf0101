/**
 * The CI jobs' side: the object store, job logs, test and coverage reports, CI variables,
 * runners and their registration, the application settings they read, and the runner protocol
 * (job requests, state updates, logs, artifacts, job tokens). Part of the CI family: composeCi
 * (ci.ts) calls it once pipelines, schedules and environments are built, because the runner
 * protocol drives the pipeline engine and reports follow its jobs. The reports' job listener is
 * added here, after ci.ts's (the merge requests' and the pipeline pages' announcements), so it
 * runs last.
 */
import type { Config } from '../platform/config.js';
import type { Database } from '../platform/db/database.js';
import type { EventBus } from '../platform/events.js';
import type { JobQueue } from '../platform/queue.js';
import { openObjectStore } from '../platform/storage/index.js';
import type { RepositoryStorage } from '../domains/projects/repository-storage.js';
import type { createPipelinesDomain } from '../domains/pipelines/index.js';
import { createJobTokenScopeService } from '../domains/runner-protocol/job-token-scope.service.js';
import { createRunnersRepository } from '../domains/runners/runners.repository.js';
import { createRunnersService } from '../domains/runners/runners.service.js';
import { createRunnerRegistration } from '../domains/runners/runner-registration.service.js';
import { createApplicationSettingsRepository } from '../domains/application-settings/application-settings.repository.js';
import { createApplicationSettingsService } from '../domains/application-settings/application-settings.service.js';
import { createCiReportsRepository } from '../domains/ci-reports/ci-reports.repository.js';
import { createCiReports, INGEST_REPORTS_JOB } from '../domains/ci-reports/ci-reports.service.js';
import { createRunnerProtocolDomain, STUCK_JOBS_JOB } from '../domains/runner-protocol/index.js';
import { createCiVariablesRepository } from '../domains/ci-variables/ci-variables.repository.js';
import { createCiVariablesService } from '../domains/ci-variables/ci-variables.service.js';
import { createJobLogChunksRepository } from '../domains/job-logs/job-log-chunks.repository.js';
import { createJobLogs } from '../domains/job-logs/job-logs.service.js';
import type { Accounts } from './accounts.js';
import type { RepositoryFamily } from './repository.js';
import type { PeopleFamily } from './people.js';

export function composeRunners(deps: {
  config: Pick<Config, 'externalUrl' | 'objectStore' | 'runnerLongPollSeconds'>;
  db: Database;
  queue: JobQueue;
  events: EventBus;
  storage: RepositoryStorage;
  accounts: Accounts;
  repository: RepositoryFamily;
  people: PeopleFamily;
  pipelinesDomain: ReturnType<typeof createPipelinesDomain>;
}) {
  const { db, queue, events, storage, pipelinesDomain } = deps;
  const { users, namespaces, authorizer } = deps.accounts;
  const { projects, projectsRepository, protectedBranches, protectedTags } = deps.repository;
  const { groups } = deps.people;

  // job logs, artifacts and caches: the data directory's objects/ or S3-compatible storage (platform/storage/)
  const objectStore = openObjectStore(deps.config.objectStore);

  const jobLogs = createJobLogs({ db, chunks: createJobLogChunksRepository(db), store: objectStore });
  // test and coverage reports, read when a CI job completes (domains/ci-reports/)
  const ciReports = createCiReports({
    db,
    reports: createCiReportsRepository(db),
    queue,
    store: objectStore,
    readLog: (jobId) => jobLogs.read(jobId),
    pipelines: pipelinesDomain.pipelinesRepository,
    projects,
    projectPath: async (projectId) => (await projectsRepository.findById(projectId))?.full_path ?? null,
    authorizer,
    repoPath: (projectId) => storage.pathFor(projectId),
  });
  pipelinesDomain.listenToJobs(ciReports.tracking);
  queue.register(INGEST_REPORTS_JOB, (payload) => ciReports.ingest(payload.jobId));
  const ciVariables = createCiVariablesService({ db, variables: createCiVariablesRepository(db), projects, groups, authorizer });

  // The runner protocol: job requests (long polling), state updates, logs, job tokens (domains/runner-protocol/)
  const runnersRepository = createRunnersRepository(db);
  const applicationSettingsRepository = createApplicationSettingsRepository(db);
  const applicationSettings = createApplicationSettingsService({ settings: applicationSettingsRepository });
  const runnersService = createRunnersService({ db, runners: runnersRepository, projects, groups, projectRows: projectsRepository, namespaces, authorizer, settings: applicationSettingsRepository });
  const runnerRegistration = createRunnerRegistration({ db, runners: runnersRepository, settings: applicationSettingsRepository, projects, groups, authorizer });
  const runnerProtocolDomain = createRunnerProtocolDomain({
    db,
    queue,
    runners: runnersService,
    maxArtifactsBytes: async () => (await applicationSettings.current()).max_artifacts_size * 1024 * 1024,
    pipelinesRepository: pipelinesDomain.pipelinesRepository,
    engine: pipelinesDomain.pipelineEngine,
    protectedBranches,
    protectedTags,
    users,
    jobLogs,
    objectStore,
    pipelines: pipelinesDomain.pipelines,
    projects,
    authorizer,
    storedVariables: async (job, { protectedRef, fromFork }) => {
      const project = await projectsRepository.findById(job.project_id);
      return project ? ciVariables.jobVariables(project, { refProtected: protectedRef, environment: job.environment, fromFork }) : [];
    },
    serverUrl: deps.config.externalUrl,
    longPollSeconds: deps.config.runnerLongPollSeconds,
    onLogAppended: async (job, size) => {
      await events.publish('job.log_appended', { jobId: job.id, pipelineId: job.pipeline_id, projectId: job.project_id, size });
    },
  });
  queue.register(STUCK_JOBS_JOB, (_payload, job) => runnerProtocolDomain.stuckJobs.run(job.id));
  pipelinesDomain.useArtifactFiles((jobId, path, maxBytes) => runnerProtocolDomain.jobArtifacts.readFileOfJob(jobId, path, maxBytes));

  const services = {
    // CI runners: creation, their tokens, the runners API (domains/runners/)
    runners: runnersService,
    runnerRegistration,
    // the instance's settings (GET/PUT /application/settings; so far the CI ones)
    applicationSettings,
    runnerProtocol: runnerProtocolDomain.runnerProtocol,
    jobArtifacts: runnerProtocolDomain.jobArtifacts,
    // POST /projects/:id/jobs/:job_id/erase: a finished job's log and artifacts removed
    jobErase: runnerProtocolDomain.jobErase,
    // the job token inbound allowlist API (GET/POST/DELETE /projects/:id/job_token_scope…)
    jobTokenScope: createJobTokenScopeService({ projects, authorizer, scope: deps.accounts.jobTokenScope }),
    stuckJobs: runnerProtocolDomain.stuckJobs,
    jobQueueSignal: runnerProtocolDomain.jobQueueSignal,
    // a pipeline's JUnit test report and line coverage (domains/ci-reports/)
    ciReports,
    objectStore,
    // a runner's log chunks by offset, then one object per job (domains/job-logs/)
    jobLogs,
    // CI/CD variables of projects, groups and the instance; jobVariableSources feeds variablesForJob (domains/ci-variables/)
    ciVariables,
  };
  return { services };
}
