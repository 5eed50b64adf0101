import type { FastifyInstance } from 'fastify';
import type { Config } from './platform/config.js';
import type { Database } from './platform/db/database.js';
import type { EventBus } from './platform/events.js';
import type { Logger } from './platform/logger.js';
import type { JobQueue } from './platform/queue.js';
import type { Retention } from './platform/retention.js';
import type { WriteWatch } from './platform/db/write-watch.js';
import type { Authorizer } from './auth/authorizer.js';
import type { RepositoryStorage } from './domains/projects/repository-storage.js';
import type { PipelineScheduleRunner } from './domains/pipeline-schedules/pipeline-schedule-runner.js';
import { composePlatform } from './composition/platform.js';
import { composeAccounts } from './composition/accounts.js';
import { composeRepository } from './composition/repository.js';
import { composePeople } from './composition/people.js';
import { composeMergeRequests } from './composition/merge-requests.js';
import { composeCi } from './composition/ci.js';
import { composeMergeTrains } from './composition/merge-trains.js';
import { createHttpServer } from './composition/http.js';
import { registerWebRoutes, type RoutePlugin } from './composition/web-routes.js';

export { BODY_LIMIT_BYTES } from './composition/http.js';
export type { RoutePlugin } from './composition/web-routes.js';

export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
  storage: RepositoryStorage;
  /** the admin socket git hooks call back on */
  internalSocket: string;
}

/**
 * The composition root: every repository and service is built here from its dependencies, and
 * nowhere else, one family at a time (server/src/composition/). Returns the services (for the CLI,
 * the admin socket and tests) and a function that builds the HTTP app.
 *
 * The families are built in dependency order: the platform (database wrapper, queue, events), the
 * shared repositories and permission function, projects and their repositories, people, merge
 * requests, then CI. Reactions on one event run in the order registered, so merge requests' come
 * before CI's (a push records the new version before its pipeline is created). Mergeability reads
 * head pipelines from CI, built after it: that call back reads `ci` once the server runs; auto-merge
 * reaches merge trains (built last) the same way.
 */
export function createServices(deps: AppDeps) {
  const { config, logger, storage } = deps;
  const { db, writeWatch, queue, events, retention } = composePlatform({ config, db: deps.db, logger });
  const accounts = composeAccounts({ db });
  const repository = composeRepository({ db, writeWatch, queue, events, storage, accounts });
  const people = composePeople({ config, db, events, accounts, repository });
  const mergeRequests = composeMergeRequests({
    config,
    db,
    logger,
    queue,
    events,
    writeWatch,
    storage,
    accounts,
    repository,
    people,
    headPipelines: (list) => ci.mergeRequestPipelines.headPipelines(list),
    hasPipelines: async (opened) => (await ci.mergeRequestPipelines.list(opened, { limit: 1, offset: 0 })).total > 0,
    // auto-merge's train strategies: the merge trains family, built after CI (called only once running)
    mergeTrains: {
      enabled: (projectId) => mergeTrains.autoMergeTrains.enabled(projectId),
      carOf: (mergeRequestId, tx) => mergeTrains.autoMergeTrains.carOf(mergeRequestId, tx),
      add: (car, tx) => mergeTrains.autoMergeTrains.add(car, tx),
      remove: (mergeRequestId, userId, tx) => mergeTrains.autoMergeTrains.remove(mergeRequestId, userId, tx),
    },
  });
  const ci = composeCi({ config, db, queue, events, storage, accounts, repository, people, mergeability: mergeRequests.mergeability });
  const mergeTrains = composeMergeTrains({ config, db, logger, queue, events, storage, accounts, repository, mergeRequests, ci });

  const services = {
    ...people.services,
    ...repository.services,
    ...ci.services,
    ...mergeRequests.services,
    ...mergeTrains.services,
    queue,
    events,
  };
  const { pipelineScheduleRunner } = ci;
  return { services, authorizer: accounts.authorizer, queue, events, retention, pipelineScheduleRunner, db, writeWatch };
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

export type ComposedServices = ReturnType<typeof createServices>;

/** `composed`: the services, when the caller built them first (a start uses them while the routes register). */
export async function buildApp(deps: AppDeps, plugins: RoutePlugin[] = [], composed: ComposedServices = createServices(deps)): Promise<App> {
  const { services, authorizer, queue, events, retention, pipelineScheduleRunner, db, writeWatch } = composed;
  const { http, routes, schemaCompilers } = await createHttpServer(deps);
  await registerWebRoutes(http, { config: deps.config, db, services, authorizer, events, writeWatch, plugins });

  async function warmUp(): Promise<void> {
    schemaCompilers.compileAll();
    await services.markdown.warmUp();
  }

  return { db, writeWatch, services, authorizer, queue, events, retention, pipelineScheduleRunner, http, routes, warmUp };
}
