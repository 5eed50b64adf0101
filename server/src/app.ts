import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { registerInputGuard } from './api/http/input-guard.js';
import type { Config } from './platform/config.js';
import type { Database, Queryable } from './platform/db/database.js';
import { createEventBus, type EventBus } from './platform/events.js';
import type { Logger } from './platform/logger.js';
import { redactUrl } from './platform/logger.js';
import { createJobQueue, type JobQueue } from './platform/queue.js';
import { createRetention, PRUNE_JOB, type Retention } from './platform/retention.js';
import { createAuthorizer, assertApiScope, type Authorizer } from './auth/authorizer.js';
import type { TokenScope } from './auth/actor.js';
import { createUsersRepository } from './domains/users/users.repository.js';
import { createUsersService } from './domains/users/users.service.js';
import { createNamespacesRepository } from './domains/namespaces/namespaces.repository.js';
import { createGroupsService } from './domains/namespaces/groups.service.js';
import { createProjectsRepository } from './domains/projects/projects.repository.js';
import { cacheProjectLookups } from './domains/projects/project-lookup-cache.js';
import { watchWrites, type WriteWatch } from './platform/db/write-watch.js';
import { cacheProtectedBranches } from './api/graphql/widget/protected-branches-cache.js';
import { createProjectsService, REMOVE_REPOSITORY_JOB } from './domains/projects/projects.service.js';
import { createProjectTransferService } from './domains/projects/project-transfer.service.js';
import { createProjectAvatarService } from './domains/projects/project-avatar.service.js';
import { projectAvatarRoutes } from './api/web/project-avatar.routes.js';
import { createGroupTransferService } from './domains/namespaces/group-transfer.service.js';
import { createMembersRepository } from './domains/members/members.repository.js';
import { createMembersService } from './domains/members/members.service.js';
import { createTokensRepository } from './domains/tokens/tokens.repository.js';
import { createTokensService } from './domains/tokens/tokens.service.js';
import { createSessionsService } from './domains/sessions/sessions.service.js';
import { createPasswordAuthenticator } from './domains/sessions/password-authenticator.js';
import { createProtectedBranchesRepository } from './domains/protected-branches/protected-branches.repository.js';
import { createProtectedTagsRepository } from './domains/protected-tags/protected-tags.repository.js';
import { createPushesService } from './domains/pushes/pushes.service.js';
import { createCollaboration } from './domains/merge-requests/collaboration.service.js';
import { createPushEventsRepository } from './domains/pushes/push-events.repository.js';
import { createRepositoryAccess } from './domains/repository/repository-access.js';
import { createBranchesService } from './domains/repository/branches.service.js';
import { createTagsService } from './domains/repository/tags.service.js';
import { createRepositoryReadsService } from './domains/repository/repository-reads.service.js';
import { createProtectedBranchesService } from './domains/repository/protected-branches.service.js';
import { createProtectedTagsService } from './domains/repository/protected-tags.service.js';
import { createCommitWriter } from './domains/repository/commit-writer.js';
import { createPushRulesService } from './domains/push-rules/push-rules.service.js';
import { createPushRulesRepository } from './domains/push-rules/push-rules.repository.js';
import { createFilesService } from './domains/repository/files.service.js';
import { createCommitsService } from './domains/repository/commits.service.js';
import { createCiLintService } from './domains/pipelines/ci-lint.service.js';
import { createRunnersRepository } from './domains/runners/runners.repository.js';
import { createRunnersService } from './domains/runners/runners.service.js';
import { createRunnerRegistration } from './domains/runners/runner-registration.service.js';
import { createApplicationSettingsRepository } from './domains/application-settings/application-settings.repository.js';
import { createApplicationSettingsService } from './domains/application-settings/application-settings.service.js';
import { createPipelineScheduleRunner, RUN_DUE_SCHEDULES_JOB, RUN_SCHEDULE_JOB, type PipelineScheduleRunner } from './domains/pipeline-schedules/pipeline-schedule-runner.js';
import { createPipelineSchedulesRepository } from './domains/pipeline-schedules/pipeline-schedules.repository.js';
import { createPipelineSchedulesService } from './domains/pipeline-schedules/pipeline-schedules.service.js';
import { AUTO_STOP_ENVIRONMENT_JOB, createEnvironmentsDomain } from './domains/environments/index.js';
import { createCommitStatusesRepository } from './domains/commit-statuses/commit-statuses.repository.js';
import { createCommitStatusesService } from './domains/commit-statuses/commit-statuses.service.js';
import { createCiReportsRepository } from './domains/ci-reports/ci-reports.repository.js';
import { createCiReports, INGEST_REPORTS_JOB } from './domains/ci-reports/ci-reports.service.js';
import { createMergeRequestReports } from './domains/ci-reports/merge-request-reports.service.js';
import { createMergeRequestDiffsRepository } from './domains/merge-requests/merge-request-diffs.repository.js';
import { mergeRequestReportsRoutes } from './api/web/merge-request-reports.routes.js';
import { ASSIGN_RESOURCE_JOB, CANCEL_PIPELINE_JOB, CREATE_DOWNSTREAM_JOB, createPipelinesDomain, CREATE_FOR_MERGE_REQUEST_JOB, CREATE_FOR_PUSH_JOB, ENQUEUE_SCHEDULED_JOB, UPDATE_BRIDGE_STATUS_JOB } from './domains/pipelines/index.js';
import { createPipelineChangeAnnouncer } from './domains/pipelines/pipeline-change-announcer.js';
import { createRunnerProtocolDomain, STUCK_JOBS_JOB } from './domains/runner-protocol/index.js';
import { createCommitPicksService } from './domains/repository/commit-picks.service.js';
import { createCompareService } from './domains/repository/compare.service.js';
import { createForksRepository } from './domains/forks/forks.repository.js';
import type { RepositoryStorage } from './domains/projects/repository-storage.js';
import { createMergeRequestsDomain, REFRESH_JOB } from './domains/merge-requests/index.js';
import { createApprovalsDomain } from './domains/approvals/index.js';
import { createCodeOwnersRepository, createCodeOwnersService, createCodeOwnersView } from './domains/code-owners/index.js';
import { codeOwnersRoutes } from './api/web/code-owners.routes.js';
import { createNotesDomain } from './domains/notes/index.js';
import { createSystemNotes, SYSTEM_NOTES_JOB } from './domains/notes/system-notes.service.js';
import { createSystemNotesRepository } from './domains/notes/system-notes.repository.js';
import { createMergeRequestsRepository } from './domains/merge-requests/merge-requests.repository.js';
import { createNoteAccess } from './domains/notes/note-access.js';
import { createOutdatedDiscussions, OUTDATED_DISCUSSIONS_JOB } from './domains/notes/outdated-discussions.service.js';
import { createOutdatedDiscussionsRepository } from './domains/notes/outdated-discussions.repository.js';
import { outdatedLineChangeRoutes } from './api/web/outdated-line-change.routes.js';
import { jobArtifactsBrowseRoutes } from './api/web/job-artifacts-browse.routes.js';
import { createSuggestionsRepository } from './domains/suggestions/suggestions.repository.js';
import { createSuggestionsService, SUGGESTIONS_JOB } from './domains/suggestions/suggestions.service.js';
import { createNotesRepository } from './domains/notes/notes.repository.js';
import { createAwardEmojiRepository } from './domains/notes/award-emoji.repository.js';
import { crashHook, createMergingDomain, POST_MERGE_JOB, REBASE_JOB } from './domains/merge-requests/merging/index.js';
import { createForksService } from './domains/forks/forks.service.js';
import { createAuthenticator } from './api/rest/authenticate.js';
import { createUrls, type RestContext } from './api/rest/context.js';
import { registerErrorHandler } from './api/rest/error-handler.js';
import { registerGitlabJsonContentType } from './api/rest/json-content-type.js';
import { createDeferredSchemaCompilers } from './api/http/deferred-schema-compilers.js';
import { registerMultipart } from './api/http/multipart.js';
import { rewriteProjectPathUrl } from './api/web/project-path-routes.js';
import { nestFields, parseQueryString } from './api/http/query-string.js';
import { declaredInput } from './api/rest/input/route.js';
import { registerRestApi } from './api/rest/index.js';
import { sessionRoutes } from './api/web/session.routes.js';
import { mergeRequestWidgetRoutes } from './api/web/merge-request-widget.routes.js';
import { environmentActionRoutes } from './api/web/environment-actions.routes.js';
import { userCalloutRoutes } from './api/web/user-callouts.routes.js';
import { createUserCallouts } from './domains/users/user-callouts.js';
import { noteAuthorRolesRoutes } from './api/web/note-author-roles.routes.js';
import { pipelineDetailsRoutes } from './api/web/pipeline-details.routes.js';
import { markdownBatchRoutes } from './api/web/markdown.routes.js';
import { commitPickRoutes } from './api/web/commit-picks.routes.js';
import { createPickIntoNewBranchService } from './domains/repository/commit-picks-into.service.js';
import { createNoteAuthorRolesRepository } from './domains/notes/note-author-roles.repository.js';
import { createNoteAuthorRolesService } from './domains/notes/note-author-roles.service.js';
import { registerGraphql } from './api/graphql/index.js';
import { createNoteLocator } from './domains/notes/note-locator.js';
import { createMergeRequestWidgets } from './api/graphql/widget/index.js';
import { createMarkdownService } from './markdown/markdown.service.js';
import { createReferenceResolver } from './markdown/reference-resolver.js';
import { isClientRoute, registerWebApp } from './api/web/static.js';
import { createOldPathRedirects, hidden } from './api/web/old-path-redirects.js';
import { createRedirectRoutesRepository } from './domains/namespaces/redirect-routes.repository.js';
import { cachedRead } from './platform/db/cached-read.js';
import { join } from 'node:path';
import { createUploadsRepository } from './domains/uploads/uploads.repository.js';
import { createUploadsService } from './domains/uploads/uploads.service.js';
import { rememberFileNames } from './api/rest/routes/uploads/multipart-files.js';
import { uploadFileRoutes } from './api/web/uploads.routes.js';
import { rawFileRoutes } from './api/web/raw-files.routes.js';
import { createAbuseReportsRepository } from './domains/abuse-reports/abuse-reports.repository.js';
import { createAbuseReportsService } from './domains/abuse-reports/abuse-reports.service.js';
import { createLabelsRepository } from './domains/labels/labels.repository.js';
import { createLabelsService } from './domains/labels/labels.service.js';
import { createMilestonesRepository } from './domains/milestones/milestones.repository.js';
import { createMilestonesService } from './domains/milestones/milestones.service.js';
import { createDescriptionVersionsRepository } from './domains/description-versions/description-versions.repository.js';
import { createDescriptionVersionsService } from './domains/description-versions/description-versions.service.js';
import { createCiVariablesRepository } from './domains/ci-variables/ci-variables.repository.js';
import { createCiVariablesService } from './domains/ci-variables/ci-variables.service.js';
import { openObjectStore } from './platform/storage/index.js';
import { createJobLogChunksRepository } from './domains/job-logs/job-log-chunks.repository.js';
import { createJobLogs } from './domains/job-logs/job-logs.service.js';

/** Request bodies above this answer 413 (file uploads through the API included). */
export const BODY_LIMIT_BYTES = 20 * 1024 * 1024;

export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
  storage: RepositoryStorage;
  /** the admin socket git hooks call back on */
  internalSocket: string;
}

/**
 * The composition root: every repository and service is built here from
 * its dependencies, and nowhere else. Returns the services (for the CLI, the
 * admin socket and tests) and a function that builds the HTTP app.
 */
export function createServices(deps: AppDeps) {
  const { logger } = deps;
  // Every repository writes through this wrapper, so cached project lookups see this process's writes at once.
  const { db, watch: writeWatch } = watchWrites(deps.db);
  const queue = createJobQueue({ db, logger, timing: { leaseSeconds: deps.config.jobLeaseSeconds, idlePollMs: deps.config.jobPollMs } });
  const events = createEventBus({ db, logger });
  // Finished jobs and old events are deleted by a job that reschedules itself (server.ts schedules the first).
  const retention = createRetention({ db, queue });
  queue.register(PRUNE_JOB, async (_payload, job) => void (await retention.run(job.id)));
  const users = createUsersRepository(db);
  const namespaces = createNamespacesRepository(db);
  const uncachedProjects = createProjectsRepository(db);
  const projectsRepository = { ...uncachedProjects, ...cacheProjectLookups(uncachedProjects, writeWatch) };
  const membersRepository = createMembersRepository(db);
  const tokensRepository = createTokensRepository(db);
  const protectedBranches = createProtectedBranchesRepository(db);
  const protectedTags = createProtectedTagsRepository(db);
  const forksRepository = createForksRepository(db);
  const authorizer = createAuthorizer({ members: membersRepository });

  const projects = createProjectsService({
    db,
    projects: projectsRepository,
    namespaces,
    protectedBranches,
    members: membersRepository,
    storage: deps.storage,
    authorizer,
    queue,
    events,
  });
  queue.register(REMOVE_REPOSITORY_JOB, async (payload) => projects.removeRepository(payload.projectId));

  // merge requests allowing collaboration: a fork's branch open to the target's mergers (every branch-writing surface)
  const collaboration = createCollaboration({ db, projects: projectsRepository, authorizer, protectedBranches });
  const pushRules = createPushRulesService({ pushRules: createPushRulesRepository(db), projects, authorizer, storage: deps.storage });
  const pushes = createPushesService({ db, projects: projectsRepository, protectedBranches, protectedTags, storage: deps.storage, authorizer, events, collaboration, pushRules });
  const repositoryAccess = createRepositoryAccess({ projects, authorizer, storage: deps.storage, collaboration });
  const commitWriter = createCommitWriter({ access: repositoryAccess, protectedBranches, pushes, pushRules });
  const files = createFilesService({ access: repositoryAccess, writer: commitWriter });

  // The notes domain needs merge requests and mergeability needs thread counts: the counts come
  // straight from the notes repositories, so the two domains are built without a cycle.
  const notesRepository = createNotesRepository(db);
  const awardEmojiRepository = createAwardEmojiRepository(db);
  // per merge request id: unresolved threads (DISCUSSIONS_NOT_RESOLVED), votes and user_notes_count
  const discussionStats = {
    unresolvedThreadCounts: notesRepository.unresolvedThreadCounts,
    votes: awardEmojiRepository.votes,
    userNotesCounts: notesRepository.userNotesCounts,
  };
  const groups = createGroupsService({
    db,
    namespaces,
    members: membersRepository,
    projects: projectsRepository,
    authorizer,
    onProjectsDeleted: projects.scheduleRemoval,
  });
  // project and group labels and milestones (domains/labels/, domains/milestones/)
  const labels = createLabelsService({ db, labels: createLabelsRepository(db), projects, groups, authorizer });
  const milestones = createMilestonesService({ db, milestones: createMilestonesRepository(db), projects, groups, authorizer });
  const mergeRequestsDomain = createMergeRequestsDomain({
    db,
    logger,
    queue,
    authorizer,
    projects,
    // the entity's canMerge reads the rules per request: cached until a rule is written
    protectedBranches: { ...protectedBranches, ...cacheProtectedBranches(protectedBranches, writeWatch) },
    storage: deps.storage,
    events,
    unresolvedDiscussions: discussionStats.unresolvedThreadCounts,
    // CI_MUST_PASS / CI_STILL_RUNNING read each merge request's pipeline (built below; called only once running)
    headPipelineStatuses: async (mergeRequests) => new Map([...(await pipelinesDomain.mergeRequestPipelines.headPipelines(mergeRequests))].map(([id, pipeline]) => [id, pipeline.status])),
    // built below from the merge request service; read only when a check runs
    approvalFacts: (mergeRequests) => approvalsDomain.mergeabilityFacts(mergeRequests),
    discussionStats,
    metadata: { labels, milestones },
    watch: writeWatch,
  });
  const noteAccess = createNoteAccess({ mergeRequests: mergeRequestsDomain.mergeRequests, notes: notesRepository });
  // Pushes return at once; new versions and mergeability rechecks happen in a job.
  queue.register(REFRESH_JOB, (payload) => mergeRequestsDomain.mergeRequestVersions.refresh(payload));
  events.react('repository.pushed', (event, tx) => mergeRequestsDomain.mergeRequestVersions.onPushed(event, tx));
  // A merged request unblocks its dependants: their pages hear it too.
  events.subscribe('merge_request.changed', (event) => mergeRequestsDomain.mergeability.onChanged(event));
  // Diff threads follow their lines onto every new version, or become outdated (a job per version).
  const outdatedDiscussions = createOutdatedDiscussions({
    db,
    repository: createOutdatedDiscussionsRepository(db),
    storage: deps.storage,
    queue,
    events,
    access: noteAccess,
  });
  queue.register(OUTDATED_DISCUSSIONS_JOB, async (payload) => void (await outdatedDiscussions.run(payload)));
  events.react('merge_request.version_recorded', (event, tx) => outdatedDiscussions.onVersionRecorded(event, tx));
  // System notes are written when their event happens (in its transaction), or for a version by a job enqueued there.
  const systemNotes = createSystemNotes({
    db,
    queue,
    mergeRequests: createMergeRequestsRepository(db),
    systemNotes: createSystemNotesRepository(db),
    notes: notesRepository,
    storage: deps.storage,
  });
  queue.register(SYSTEM_NOTES_JOB, (payload) => systemNotes.run(payload));
  events.react('merge_request.event_recorded', (event, tx) => systemNotes.onEventRecorded(event, tx));
  events.react('merge_request.version_recorded', (event, tx) => systemNotes.onVersionRecorded(event, tx));
  // Approvals: rules, settings, approving, reviews (domains/approvals/); a new merge request gets
  // the project's rules and a push removes the approvals it invalidates, in their transactions.
  // CODEOWNERS: parsed once per project and commit, owners resolved per kind (domains/code-owners/).
  const codeOwners = createCodeOwnersService({ repository: createCodeOwnersRepository(db), storage: deps.storage });
  const approvalsDomain = createApprovalsDomain({
    db,
    codeOwnerFiles: codeOwners,
    authorizer,
    storage: deps.storage,
    projects,
    projectRows: projectsRepository,
    groups,
    namespaces,
    users,
    mergeRequestsService: mergeRequestsDomain.mergeRequests,
    mergeRequests: mergeRequestsDomain.mergeRequestsRepository,
    mergeability: mergeRequestsDomain.mergeability,
  });
  events.react('merge_request.event_recorded', (event, tx) => approvalsDomain.reactions.onEventRecorded(event, tx));
  events.react('merge_request.version_recorded', (event, tx) => approvalsDomain.reactions.onVersionRecorded(event, tx));
  const mergingDomain = createMergingDomain({
    db,
    logger,
    queue,
    events,
    authorizer,
    projects: projectsRepository,
    protectedBranches,
    storage: deps.storage,
    pushes,
    mergeRequestsService: mergeRequestsDomain.mergeRequests,
    versions: mergeRequestsDomain.mergeRequestVersions,
    mergeability: mergeRequestsDomain.mergeability,
    externalUrl: deps.config.externalUrl,
    onStep: crashHook(deps.config.testCrashAt, logger),
    collaboration,
  });
  queue.register(REBASE_JOB, (payload, job) => mergingDomain.rebasing.run(payload, job));
  queue.register(POST_MERGE_JOB, (payload) => mergingDomain.runPostMergeJob(payload));
  // suggested changes in diff comments: shown with the notes, applied as commits (domains/suggestions/)
  const suggestions = createSuggestionsService({
    suggestions: createSuggestionsRepository(db),
    mergeRequests: mergeRequestsDomain.mergeRequests,
    projects,
    access: repositoryAccess,
    protectedBranches,
    writer: commitWriter,
    storage: deps.storage,
  });
  queue.register(SUGGESTIONS_JOB, () => suggestions.catchUp());

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
    repoPath: (projectId) => deps.storage.pathFor(projectId),
    serverUrl: deps.config.externalUrl,
    mergeRequests: createMergeRequestsRepository(db),
    mergeability: mergeRequestsDomain.mergeability,
  });
  events.react('repository.pushed', (event, tx) => pipelinesDomain.onPushed(event, tx));
  queue.register(CREATE_FOR_PUSH_JOB, (payload) => pipelinesDomain.runCreateForPush(payload));
  // A pipeline's jobs moving change its merge requests' widget (its status, CI_MUST_PASS): they hear it in the job's transaction.
  const pipelineMergeRequests = createMergeRequestsRepository(db);
  const announcePipeline = async (pipelineId: number, tx: Queryable) => {
    const pipeline = await pipelinesDomain.pipelinesRepository.pipelineById(pipelineId, tx);
    if (pipeline) await mergeRequestsDomain.mergeability.publishChanged(await pipelineMergeRequests.openForPipeline(pipeline, tx), tx);
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
  const environmentsDomain = createEnvironmentsDomain({
    db,
    queue,
    authorizer,
    projects,
    pipelines: pipelinesDomain.pipelines,
    pipelinesRepository: pipelinesDomain.pipelinesRepository,
    engine: pipelinesDomain.pipelineEngine,
    repoPath: (projectId) => deps.storage.pathFor(projectId),
  });
  pipelinesDomain.listenToJobs(environmentsDomain.tracking);
  // open pipeline and job pages hear every transition (GraphQL subscriptions; docs/pipelines.md)
  pipelinesDomain.listenToJobs(createPipelineChangeAnnouncer(events));
  queue.register(AUTO_STOP_ENVIRONMENT_JOB, (payload) => environmentsDomain.runAutoStop(payload));
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
    repoPath: (projectId) => deps.storage.pathFor(projectId),
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

  const passwords = createPasswordAuthenticator({ db, users });
  const tokens = createTokensService({ tokens: tokensRepository, users, events });
  // A revocation in any process evicts the token from every process's auth cache.
  events.subscribe('token.revoked', (event) => tokens.forget({ tokenId: event.payload.tokenId }));
  events.subscribe('user.changed', (event) => tokens.forget({ userId: event.payload.userId }));

  const services = {
    users: createUsersService({
      db,
      events,
      users,
      namespaces,
      forgetAuthentications: (userId) => tokens.forget({ userId }),
      personalProjects: {
        idsIn: (namespaceIds, tx) => projectsRepository.idsInNamespaces(namespaceIds, tx),
        remove: async (projectIds, tx) => {
          await projectsRepository.markPendingDelete(projectIds, tx);
          await projects.scheduleRemoval(projectIds, tx);
        },
      },
    }),
    groups,
    // moving a group and its subtree under another parent (POST /groups/:id/transfer)
    groupTransfer: createGroupTransferService({ db, groups, namespaces, authorizer }),
    projects,
    // moving a project to another namespace (PUT /projects/:id/transfer)
    projectTransfer: createProjectTransferService({ db, projects, projectRows: projectsRepository, namespaces, authorizer }),
    // the project avatar (PUT /projects/:id with a multipart `avatar`; served at the entity's avatar_url)
    projectAvatars: createProjectAvatarService({ db, projects, rows: projectsRepository, authorizer }),
    members: createMembersService({ members: membersRepository, users, authorizer }),
    // CODEOWNERS of a file at a ref, for the file view (the approvals domain takes the same service)
    codeOwnersOfFiles: createCodeOwnersView({ access: repositoryAccess, codeOwners }),
    tokens,
    sessions: createSessionsService({ db, users, passwords }),
    passwords,
    pushes,
    collaboration,
    pushRules,
    branches: createBranchesService({
      pushRules,
      access: repositoryAccess,
      protectedBranches,
      protectedTags,
      pushes,
      // GitLab's Branches::CreateService on an empty repository: an empty README.md on the default branch first.
      createDefaultBranch: async (actor, projectId, branch) => void (await files.create(actor, projectId, 'README.md', { branch, message: 'Add README.md', content: Buffer.alloc(0) })),
    }),
    tags: createTagsService({ access: repositoryAccess, protectedBranches, protectedTags, pushes }),
    repositoryReads: createRepositoryReadsService({ access: repositoryAccess }),
    branchProtection: createProtectedBranchesService({ access: repositoryAccess, db, protectedBranches, users, namespaces }),
    tagProtection: createProtectedTagsService({ access: repositoryAccess, db, protectedTags, users, namespaces }),
    files,
    ciLint: createCiLintService({ access: repositoryAccess, serverUrl: deps.config.externalUrl }),
    // CI runners: creation, their tokens, the runners API (domains/runners/)
    runners: runnersService,
    runnerRegistration,
    // the instance's settings (GET/PUT /application/settings; so far the CI ones)
    applicationSettings,
    runnerProtocol: runnerProtocolDomain.runnerProtocol,
    jobArtifacts: runnerProtocolDomain.jobArtifacts,
    stuckJobs: runnerProtocolDomain.stuckJobs,
    jobQueueSignal: runnerProtocolDomain.jobQueueSignal,
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
      repoPath: (projectId) => deps.storage.pathFor(projectId),
    }),
    // a pipeline's JUnit test report and line coverage (domains/ci-reports/)
    ciReports,
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
      repoPath: (projectId) => deps.storage.pathFor(projectId),
      db,
    }),
    pipelineScheduleRunner,
    environments: environmentsDomain.environments,
    environmentsRepository: environmentsDomain.environmentsRepository,
    mergeRequestEnvironments: environmentsDomain.mergeRequestEnvironments,
    objectStore,
    // a runner's log chunks by offset, then one object per job (domains/job-logs/)
    jobLogs,
    // CI/CD variables of projects, groups and the instance; jobVariableSources feeds variablesForJob (domains/ci-variables/)
    ciVariables,
    commits: createCommitsService({ access: repositoryAccess, writer: commitWriter }),
    commitPicks: createCommitPicksService({ access: repositoryAccess, writer: commitWriter }),
    compare: createCompareService({ access: repositoryAccess, forks: forksRepository }),
    ...mergeRequestsDomain,
    approvals: approvalsDomain.approvals,
    approvalRules: approvalsDomain.rules,
    approvalSettings: approvalsDomain.settings,
    reviews: approvalsDomain.reviews,
    approvalLookups: approvalsDomain.lookups,
    approvalsRepository: approvalsDomain.repository,
    ...mergingDomain,
    // discussions: notes, threads, drafts, award emoji (domains/notes/)
    ...createNotesDomain({ db, notes: notesRepository, awards: awardEmojiRepository, access: noteAccess, storage: deps.storage, events, suggestions }),
    discussionStats,
    noteAccess,
    notesRepository,
    suggestions,
    forks: createForksService({ db, projects, projectsRepository, namespaces, protectedBranches, storage: deps.storage, authorizer, events }),
    pushEvents: createPushEventsRepository(db),
    // diff threads traced onto new versions, outdated threads' lines (domains/notes/outdated-discussions.service.ts)
    outdatedDiscussions,
    // files attached to notes and descriptions, stored under <dataDir>/uploads (domains/uploads/)
    uploads: createUploadsService({ uploads: createUploadsRepository(db), projects, authorizer, root: join(deps.config.dataDir, 'uploads') }),
    // users reported to the administrators (domains/abuse-reports/)
    labels,
    milestones,
    abuseReports: createAbuseReportsService({ reports: createAbuseReportsRepository(db), users }),
    // the history of merge request descriptions (domains/description-versions/)
    descriptionVersions: createDescriptionVersionsService({ mergeRequests: mergeRequestsDomain.mergeRequests, versions: createDescriptionVersionsRepository(db) }),
    markdown: createMarkdownService({ references: createReferenceResolver({ db, projects, authorizer }) }),
    namespaces,
    usersRepository: users,
    forksRepository,
    protectedBranches,
    storage: deps.storage,
    queue,
    events,
  };
  return { services, authorizer, queue, events, retention, pipelineScheduleRunner, db, writeWatch };
}

export type Services = ReturnType<typeof createServices>['services'];

export interface App {
  db: Database;
  /** moves when cached reads may be stale; hears other processes' writes once started */
  writeWatch: WriteWatch;
  services: Services;
  authorizer: Authorizer;
  queue: JobQueue;
  events: EventBus;
  /** schedules the job that prunes finished jobs and old events (server.ts, on start) */
  retention: Pick<Retention, 'schedule'>;
  /** schedules the sweep that runs due pipeline schedules (server.ts, on start) */
  pipelineScheduleRunner: Pick<PipelineScheduleRunner, 'schedule'>;
  http: FastifyInstance;
  /** Every route registered (Fastify has no list of its own), for tests that must visit them all. */
  routes: readonly { method: string; url: string }[];
  /**
   * Does what a start leaves for later, so that first requests seldom pay for it: compiles
   * the schemas not compiled yet and loads the Markdown renderer. Run after the server listens.
   */
  warmUp(): Promise<void>;
}

/** Extra route plugins (git smart HTTP and others) registered beside the REST API. */
export type RoutePlugin = (app: FastifyInstance, ctx: RestContext) => void | Promise<void>;

export async function buildApp(deps: AppDeps, plugins: RoutePlugin[] = []): Promise<App> {
  const { services, authorizer, queue, events, retention, pipelineScheduleRunner, db, writeWatch } = createServices(deps);
  const schemaCompilers = createDeferredSchemaCompilers();
  const http: FastifyInstance = Fastify({
    schemaController: { compilersFactory: schemaCompilers.compilersFactory },
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.config.trustProxy,
    routerOptions: { querystringParser: (query: string) => parseQueryString(query), ignoreTrailingSlash: true },
    rewriteUrl: (request) => rewriteProjectPathUrl(request.url ?? '/'),
    // One request line of our own (onResponse below), with secrets stripped from the URL.
    logController: new LogController({ disableRequestLogging: true }),
  });
  http.addHook('onResponse', async (request, reply) => {
    request.log.info({ method: request.method, url: redactUrl(request.originalUrl), status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  // GitLab reads an empty JSON body as no parameters (curl scripts send one); anything else parses as usual.
  const parseJson = http.getDefaultJsonParser('error', 'ignore');
  http.removeContentTypeParser('application/json');
  http.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    (body as string).trim() === '' ? done(null, {}) : parseJson(request, body as string, done),
  );
  registerGitlabJsonContentType(http);
  await http.register(fastifyCookie);
  await http.register(fastifyFormbody, { parser: (body: string) => parseQueryString(body), bodyLimit: BODY_LIMIT_BYTES });
  await registerMultipart(http, { attachFieldsToBody: 'keyValues', limits: { fileSize: BODY_LIMIT_BYTES }, onFile: rememberFileNames });
  // Multipart fields arrive flat (`position[base_sha]`); nest them like a query string.
  http.addHook('preValidation', async (request) => {
    if (request.isMultipart() && request.body && typeof request.body === 'object') {
      request.body = nestFields(request.body as Record<string, unknown>);
    }
  });
  // No input reaches the database unchecked: NUL bytes and out-of-range ids, on every route.
  registerInputGuard(http, { declaresInput: (request) => declaredInput(request) !== undefined });
  const routes: { method: string; url: string }[] = [];
  http.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  registerErrorHandler(http);

  const ctx: RestContext = { services, authorizer, urls: createUrls(deps.config.externalUrl), externalUrl: deps.config.externalUrl, watch: writeWatch };
  const authenticate = createAuthenticator({
    tokens: services.tokens,
    jobTokens: (token) => services.runnerProtocol.jobTokenIdentity(token),
    sessions: services.sessions,
    users: services.usersRepository,
    externalUrl: deps.config.externalUrl,
  });

  await http.register(
    async (api) => {
      api.addHook('onRequest', async (request) => {
        request.actor = await authenticate(request);
        const config = request.routeOptions.config as { userEndpoint?: boolean; alsoScopes?: TokenScope[] };
        assertApiScope(request.actor, request.method, { userEndpoint: config?.userEndpoint, alsoScopes: config?.alsoScopes });
      });
      await registerRestApi(api, ctx);
    },
    { prefix: '/api/v4' },
  );
  await http.register(async (web) => sessionRoutes(web, ctx));
  // The merge widget: GraphQL (queries and subscriptions) and the polled REST widget endpoint.
  const widgets = createMergeRequestWidgets({ services, authorizer, events, watch: writeWatch, externalUrl: deps.config.externalUrl });
  // GitLab's editor extensions: threads, notes and review mutations through the REST API's services
  const editor = {
    notes: services.notes,
    discussions: services.discussions,
    awardEmoji: services.awardEmoji,
    noteAccess: services.noteAccess,
    locator: createNoteLocator({ notes: services.notesRepository, mergeRequests: services.mergeRequestsRepository }),
    mergeRequests: services.mergeRequests,
    merging: services.merging,
    mergeRequestUsers: services.mergeRequestsRepository,
    users: services.usersRepository,
    markdown: services.markdown,
  };
  await http.register(async (graphql) => registerGraphql(graphql, { authenticate, events, widgets, watch: writeWatch, urls: ctx.urls, externalUrl: deps.config.externalUrl, editor, labels: { labels: services.labels, milestones: services.milestones, mergeRequests: services.mergeRequests }, approvals: { approvals: services.approvals }, pipelines: { pipelines: services.pipelines, pipelinesRepository: services.pipelinesRepository, downstream: services.downstreamRepository } }));
  await http.register(async (web) => mergeRequestWidgetRoutes(web, { authenticate, widgets, urls: ctx.urls }));
  // the hints a user dismissed (GitLab's user callouts)
  await http.register(async (web) => userCalloutRoutes(web, { authenticate, callouts: createUserCallouts(db) }));
  // the merge widget's deployments and their stop / deploy / re-deploy actions
  await http.register(async (web) =>
    environmentActionRoutes(web, { authenticate, mergeRequests: services.mergeRequests, mergeRequestEnvironments: services.mergeRequestEnvironments, environments: services.environments, pipelines: services.pipelines }),
  );
  // the merge request's test report comparison and line coverage (GitLab's test_reports.json, coverage_reports.json)
  const mergeRequestReports = createMergeRequestReports({ mergeRequests: services.mergeRequests, diffs: createMergeRequestDiffsRepository(db), reports: services.ciReports });
  await http.register(async (web) => mergeRequestReportsRoutes(web, { authenticate, reports: mergeRequestReports, urls: ctx.urls }));
  // the pipeline page's upstream and downstream pipelines (GitLab's pipeline JSON) and its jobs' needs (GitLab's DAG JSON)
  await http.register(async (web) => pipelineDetailsRoutes(web, { authenticate, relations: services.pipelineRelations, pipelines: services.pipelines }));
  // the role badges of the Activity section (web-only: the REST note entity has no access levels)
  const noteAuthorRoles = createNoteAuthorRolesService({ mergeRequests: services.mergeRequests, roles: createNoteAuthorRolesRepository(db) });
  await http.register(async (web) => noteAuthorRolesRoutes(web, { authenticate, roles: noteAuthorRoles }));
  // the Activity section's note bodies, many in one request (GitLab's POST /api/v4/markdown renders one)
  await http.register(async (web) => markdownBatchRoutes(web, { authenticate, projects: services.projects, markdown: services.markdown }));
  await http.register(async (web) => uploadFileRoutes(web, { authenticate, uploads: services.uploads }));
  // repository files by URL (`/<project>/-/raw/<ref>/<path>`), what README images point at
  await http.register(async (web) => rawFileRoutes(web, { authenticate, files: services.files }));
  // the file view's code owners and the CODEOWNERS file's syntax errors
  await http.register(async (web) => codeOwnersRoutes(web, { authenticate, codeOwners: services.codeOwnersOfFiles, urls: ctx.urls }));
  await http.register(async (web) => projectAvatarRoutes(web, { authenticate, avatars: services.projectAvatars }));
  await http.register(async (web) => outdatedLineChangeRoutes(web, { authenticate, outdated: services.outdatedDiscussions }));
  await http.register(async (web) => jobArtifactsBrowseRoutes(web, { authenticate, jobArtifacts: services.jobArtifacts }));
  // the merge widget's Revert / Cherry-pick: a new branch (in the caller's fork when they cannot push) and its merge request
  const picksInto = createPickIntoNewBranchService({ forksRepository: services.forksRepository, projects: services.projects, authorizer, namespaces: services.namespaces, storage: services.storage, forks: services.forks, branches: services.branches, picks: services.commitPicks, mergeRequests: services.mergeRequests });
  await http.register(async (web) => commitPickRoutes(web, { authenticate, picks: picksInto, externalUrl: deps.config.externalUrl }));
  for (const plugin of plugins) {
    await http.register(async (scoped) => plugin(scoped, ctx));
  }
  const serveWebApp = await registerWebApp(http);
  // a page at the old path of a renamed or moved project or group redirects to its new path
  const oldPathRedirect = createOldPathRedirects({
    authenticate,
    // Every app page load asks; redirect_routes changes only with routes, so answers are kept until routes are written.
    redirects: { longestMatch: cachedRead(writeWatch, createRedirectRoutesRepository(db).longestMatch, { tables: ['routes'], key: (paths: string[]) => (paths.at(-1) ?? '').toLowerCase() }) },
    canSeeProject: async (actor, fullPath) => (await services.projects.find(actor, fullPath).catch(hidden)) !== false,
    canSeeNamespace: async (actor, fullPath) => (await services.groups.findNamespace(actor, fullPath).catch(hidden)) !== false,
  });
  http.setNotFoundHandler(async (request, reply) => {
    const moved = isClientRoute(request.url) && !request.url.startsWith('/assets/') ? await oldPathRedirect(request) : undefined;
    if (moved) return reply.redirect(moved, 302);
    return serveWebApp(request, reply) ?? reply.status(404).send({ message: '404 Not Found' });
  });

  async function warmUp(): Promise<void> {
    schemaCompilers.compileAll();
    await services.markdown.warmUp();
  }

  return { db, writeWatch, services, authorizer, queue, events, retention, pipelineScheduleRunner, http, routes, warmUp };
}
