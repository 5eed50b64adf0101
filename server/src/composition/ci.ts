/**
 * CI/CD: pipelines, pipeline schedules, environments, job logs, test and coverage reports, CI
 * variables, runners and the runner protocol, artifacts, commit statuses, CI lint and the
 * application settings the runners read.
 *
 * Built last of the domain families: pipelines read files through repository access, merge
 * request pipelines read merge requests, and a pipeline's jobs moving announce its merge
 * requests' mergeability. Its reactions on `repository.pushed` and
 * `merge_request.version_recorded` register after the merge request family's, so a push records
 * the new version (and traces threads, writes system notes, resets approvals) before the pipeline
 * is created. Job listeners run in the order added: the merge requests' announcement, then
 * environments, then the pipeline pages' announcement, then reports (runners.ts).
 */
import type { Config } from '../platform/config.js';
import type { Database, Queryable } from '../platform/db/database.js';
import type { EventBus } from '../platform/events.js';
import type { JobQueue } from '../platform/queue.js';
import type { RepositoryStorage } from '../domains/projects/repository-storage.js';
import { createMergeRequestsRepository } from '../domains/merge-requests/merge-requests.repository.js';
import { createMergeRequestDiffsRepository } from '../domains/merge-requests/merge-request-diffs.repository.js';
import { createCiLintService } from '../domains/pipelines/ci-lint.service.js';
import { createPipelineScheduleRunner, RUN_DUE_SCHEDULES_JOB, RUN_SCHEDULE_JOB } from '../domains/pipeline-schedules/pipeline-schedule-runner.js';
import { createPipelineSchedulesRepository } from '../domains/pipeline-schedules/pipeline-schedules.repository.js';
import { createPipelineSchedulesService } from '../domains/pipeline-schedules/pipeline-schedules.service.js';
import { AUTO_STOP_ENVIRONMENT_JOB, createEnvironmentsDomain } from '../domains/environments/index.js';
import { createCommitStatusesRepository } from '../domains/commit-statuses/commit-statuses.repository.js';
import { createCommitStatusesService } from '../domains/commit-statuses/commit-statuses.service.js';
import { ASSIGN_RESOURCE_JOB, CANCEL_PIPELINE_JOB, CREATE_DOWNSTREAM_JOB, createPipelinesDomain, CREATE_FOR_MERGE_REQUEST_JOB, CREATE_FOR_PUSH_JOB, ENQUEUE_SCHEDULED_JOB, UPDATE_BRIDGE_STATUS_JOB } from '../domains/pipelines/index.js';
import { createPipelineChangeAnnouncer } from '../domains/pipelines/pipeline-change-announcer.js';
import type { Accounts } from './accounts.js';
import type { RepositoryFamily } from './repository.js';
import type { PeopleFamily } from './people.js';
import type { MergeRequestFamily } from './merge-requests.js';
import { composeRunners } from './runners.js';

export function composeCi(deps: {
  config: Pick<Config, 'externalUrl' | 'objectStore' | 'runnerLongPollSeconds'>;
  db: Database;
  queue: JobQueue;
  events: EventBus;
  storage: RepositoryStorage;
  accounts: Accounts;
  repository: RepositoryFamily;
  people: PeopleFamily;
  mergeability: MergeRequestFamily['mergeability'];
}) {
  const { db, queue, events, storage, mergeability } = deps;
  const { users, authorizer } = deps.accounts;
  const { projects, projectsRepository, protectedBranches, protectedTags, repositoryAccess } = deps.repository;

  // CI/CD pipelines: created for each pushed branch or tag by a job enqueued with the push (domains/pipelines/)
  const pipelinesDomain = createPipelinesDomain({
    db,
    queue,
    authorizer,
    projects,
    projectRows: projectsRepository,
    users,
    access: repositoryAccess,
    protectedBranches,
    protectedTags,
    repoPath: (projectId) => storage.pathFor(projectId),
    serverUrl: deps.config.externalUrl,
    mergeRequests: createMergeRequestsRepository(db),
    mergeability,
  });
  events.react('repository.pushed', (event, tx) => pipelinesDomain.onPushed(event, tx));
  queue.register(CREATE_FOR_PUSH_JOB, (payload) => pipelinesDomain.runCreateForPush(payload));
  // A pipeline's jobs moving change its merge requests' widget (its status, CI_MUST_PASS), and a
  // merged request's post-merge pipeline container: they hear it in the job's transaction.
  const pipelineMergeRequests = createMergeRequestsRepository(db);
  const announcePipeline = async (pipelineId: number, tx: Queryable) => {
    const pipeline = await pipelinesDomain.pipelinesRepository.pipelineById(pipelineId, tx);
    if (!pipeline) return;
    const open = await pipelineMergeRequests.openForPipeline(pipeline, tx);
    const merged = await pipelineMergeRequests.mergedAtPipeline(pipeline, tx);
    await mergeability.publishChanged([...open, ...merged], tx);
  };
  pipelinesDomain.listenToJobs({ pipelineCreated: (pipeline, tx) => announcePipeline(pipeline.id, tx), jobMoved: (job, tx) => announcePipeline(job.pipeline_id, tx) });
  // merge request pipelines: a job per new version (opened, or its source branch pushed), enqueued with the version
  events.react('merge_request.version_recorded', (event, tx) => pipelinesDomain.mergeRequestPipelines.onVersionRecorded(event, tx));
  queue.register(CREATE_FOR_MERGE_REQUEST_JOB, async (payload) => void (await pipelinesDomain.mergeRequestPipelines.runCreateForMergeRequest(payload)));
  queue.register(ENQUEUE_SCHEDULED_JOB, (payload) => pipelinesDomain.runEnqueueScheduled(payload));
  queue.register(CREATE_DOWNSTREAM_JOB, (payload) => pipelinesDomain.runCreateDownstream(payload));
  queue.register(UPDATE_BRIDGE_STATUS_JOB, (payload) => pipelinesDomain.runUpdateBridgeStatus(payload));
  queue.register(ASSIGN_RESOURCE_JOB, (payload) => pipelinesDomain.runAssignResource(payload));
  queue.register(CANCEL_PIPELINE_JOB, (payload) => pipelinesDomain.runCancelPipeline(payload));
  // pipeline schedules: a sweep job every minute claims due schedules and enqueues their runs (domains/pipeline-schedules/)
  const pipelineSchedulesRepository = createPipelineSchedulesRepository(db);
  const pipelineScheduleRunner = createPipelineScheduleRunner({
    db,
    queue,
    schedules: pipelineSchedulesRepository,
    projectRows: projectsRepository,
    users,
    creation: pipelinesDomain.pipelineCreation,
    pipelineRules: pipelinesDomain.pipelines,
  });
  queue.register(RUN_DUE_SCHEDULES_JOB, async (_payload, job) => void (await pipelineScheduleRunner.sweep(job.id)));
  queue.register(RUN_SCHEDULE_JOB, (payload) => pipelineScheduleRunner.run(payload));
  // environments and deployments follow deploy jobs in their transactions (domains/environments/)
  const mergeRequestDiffs = createMergeRequestDiffsRepository(db);
  const environmentsDomain = createEnvironmentsDomain({
    db,
    queue,
    authorizer,
    projects,
    pipelines: pipelinesDomain.pipelines,
    pipelinesRepository: pipelinesDomain.pipelinesRepository,
    engine: pipelinesDomain.pipelineEngine,
    repoPath: (projectId) => storage.pathFor(projectId),
    changedPaths: async (mergeRequestId) => {
      const version = await mergeRequestDiffs.latest(mergeRequestId);
      return version ? (await mergeRequestDiffs.files(version.id)).filter((file) => !file.deleted_file).map((file) => file.new_path) : [];
    },
  });
  pipelinesDomain.listenToJobs(environmentsDomain.tracking);
  // open pipeline and job pages hear every transition (GraphQL subscriptions; docs/pipelines.md)
  pipelinesDomain.listenToJobs(createPipelineChangeAnnouncer(events));
  queue.register(AUTO_STOP_ENVIRONMENT_JOB, (payload) => environmentsDomain.runAutoStop(payload));

  const runners = composeRunners({ config: deps.config, db, queue, events, storage, accounts: deps.accounts, repository: deps.repository, people: deps.people, pipelinesDomain });

  const services = {
    ciLint: createCiLintService({ access: repositoryAccess, serverUrl: deps.config.externalUrl }),
    ...runners.services,
    pipelines: pipelinesDomain.pipelines,
    // commit statuses posted by outside CI systems: generic jobs in the `external` stage (domains/commit-statuses/)
    commitStatuses: createCommitStatusesService({
      db,
      statuses: createCommitStatusesRepository(db),
      pipelinesRepository: pipelinesDomain.pipelinesRepository,
      engine: pipelinesDomain.pipelineEngine,
      pipelines: pipelinesDomain.pipelines,
      projects,
      authorizer,
      repoPath: (projectId) => storage.pathFor(projectId),
    }),
    // merge request pipelines: POST/GET …/merge_requests/:iid/pipelines, head_pipeline
    mergeRequestPipelines: pipelinesDomain.mergeRequestPipelines,
    // for the runner protocol: assignJob (a runner picked a job), recordJobResult (it finished), pendingJobs
    pipelineEngine: pipelinesDomain.pipelineEngine,
    pipelinesRepository: pipelinesDomain.pipelinesRepository,
    pipelineCreation: pipelinesDomain.pipelineCreation,
    // trigger jobs and their child and multi-project pipelines; resource groups (domains/pipelines/)
    downstreamPipelines: pipelinesDomain.downstreamPipelines,
    downstreamRepository: pipelinesDomain.downstreamRepository,
    resourceGroupsRepository: pipelinesDomain.resourceGroupsRepository,
    resourceGroups: pipelinesDomain.resourceGroups,
    pipelineRelations: pipelinesDomain.pipelineRelations,
    pipelineSchedules: createPipelineSchedulesService({
      projects,
      authorizer,
      schedules: pipelineSchedulesRepository,
      pipelines: pipelinesDomain.pipelinesRepository,
      pipelineRules: pipelinesDomain.pipelines,
      queue,
      repoPath: (projectId) => storage.pathFor(projectId),
      db,
    }),
    pipelineScheduleRunner,
    environments: environmentsDomain.environments,
    environmentsRepository: environmentsDomain.environmentsRepository,
    mergeRequestEnvironments: environmentsDomain.mergeRequestEnvironments,
  };
  return { services, pipelineScheduleRunner, mergeRequestPipelines: pipelinesDomain.mergeRequestPipelines, listenToJobs: pipelinesDomain.listenToJobs };
}

export type CiFamily = ReturnType<typeof composeCi>;
