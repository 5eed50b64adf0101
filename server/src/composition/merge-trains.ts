/**
 * Merge trains (domains/merge-trains/, docs/merge-trains.md): built after CI, since a train
 * creates merge request pipelines and hears its pipelines end, and merges through the merging
 * domain's intents. Its reactions register after every other family's, so a push has recorded
 * its version and created its pipelines before a train looks at it. Auto-merge (built with
 * merge requests, before this family) reaches trains through `autoMergeTrains`, its MergeTrainsPort.
 */
import type { Config } from '../platform/config.js';
import type { Database } from '../platform/db/database.js';
import type { EventBus } from '../platform/events.js';
import type { Logger } from '../platform/logger.js';
import type { JobQueue } from '../platform/queue.js';
import type { RepositoryStorage } from '../domains/projects/repository-storage.js';
import { createMergeRequestsRepository } from '../domains/merge-requests/merge-requests.repository.js';
import { createAutoMergeTrainsPort, createMergeTrainsRepository, createMergeTrainsService, createTrainRefresh, MERGE_TRAIN_REFRESH_JOB, mergeTrainReactions, trainCrashHook, trainMembership } from '../domains/merge-trains/index.js';
import type { Accounts } from './accounts.js';
import type { CiFamily } from './ci.js';
import type { MergeRequestFamily } from './merge-requests.js';
import type { RepositoryFamily } from './repository.js';

export function composeMergeTrains(deps: {
  config: Pick<Config, 'externalUrl' | 'testCrashAt'>;
  db: Database;
  logger: Pick<Logger, 'warn'>;
  queue: JobQueue;
  events: EventBus;
  storage: RepositoryStorage;
  accounts: Accounts;
  repository: RepositoryFamily;
  mergeRequests: MergeRequestFamily;
  ci: CiFamily;
}) {
  const { db, queue, events } = deps;
  const cars = createMergeTrainsRepository(db);
  const mr = deps.mergeRequests.services;
  const ci = deps.ci.services;
  const refresh = createTrainRefresh({
    db,
    cars,
    projects: deps.repository.projectsRepository,
    mergeRequests: createMergeRequestsRepository(db, { events }),
    storage: deps.storage,
    pipelines: ci.pipelinesRepository,
    mergeRequestPipelines: ci.mergeRequestPipelines,
    engine: ci.pipelineEngine,
    readLog: (jobId) => ci.jobLogs.read(jobId),
    intents: mr.mergeIntents,
    settlement: mr.mergeSettlement,
    queue,
    events,
    logger: deps.logger,
    externalUrl: deps.config.externalUrl,
    onStep: trainCrashHook(deps.config.testCrashAt),
  });
  queue.register(MERGE_TRAIN_REFRESH_JOB, (payload) => refresh.refresh(payload));
  const trainReactions = mergeTrainReactions({ cars, refresh });
  deps.ci.listenToJobs(trainReactions.jobListener);
  events.react('repository.pushed', (event, tx) => trainReactions.onPushed(event, tx));
  events.react('merge_request.version_recorded', (event, tx) => trainReactions.onMergeRequestChanged(event, tx));
  events.react('merge_request.event_recorded', (event, tx) => trainReactions.onMergeRequestChanged(event, tx));

  const mergeTrains = createMergeTrainsService({
    db,
    cars,
    projects: deps.repository.projects,
    authorizer: deps.accounts.authorizer,
    mergeRequestsService: mr.mergeRequests,
    merging: mr.merging,
    refresh,
    mergeRequests: createMergeRequestsRepository(db),
    pipelines: ci.pipelinesRepository,
    autoMerge: mr.autoMerge,
  });
  // auto-merge's train strategies hand requests to trains and take them off through this port
  // (composeMergeRequests, built before this family, reaches it through app.ts)
  const autoMergeTrains = createAutoMergeTrainsPort({
    cars,
    membership: trainMembership({ cars, refresh }),
    projects: deps.repository.projectsRepository,
    mergeRequests: createMergeRequestsRepository(db),
    queue,
  });
  return {
    autoMergeTrains,
    services: {
      mergeTrains,
      mergeTrainRefresh: refresh,
      /** After a restart: every train is walked once (an interrupted train merge is settled there). */
      reconcileMergeTrains: async () => {
        for (const train of await cars.trainsWithCars()) await queue.enqueue(MERGE_TRAIN_REFRESH_JOB, train);
      },
    },
  };
}
