/**
 * The ground floor of the composition root: the database wrapper every repository writes
 * through, the job queue, the event bus and the retention job. Built first because every other
 * family takes them; the shared repositories and the permission function (`composeAccounts`,
 * people.ts) come next.
 */
import type { Config } from '../platform/config.js';
import type { Database } from '../platform/db/database.js';
import { watchWrites } from '../platform/db/write-watch.js';
import { createEventBus } from '../platform/events.js';
import type { Logger } from '../platform/logger.js';
import { createJobQueue } from '../platform/queue.js';
import { createRetention, PRUNE_JOB } from '../platform/retention.js';

export function composePlatform(deps: { config: Pick<Config, 'jobLeaseSeconds' | 'jobPollMs'>; db: Database; logger: Logger }) {
  const { logger } = deps;
  // Every repository writes through this wrapper, so cached project lookups see this process's writes at once.
  const { db, watch: writeWatch } = watchWrites(deps.db);
  const queue = createJobQueue({ db, logger, timing: { leaseSeconds: deps.config.jobLeaseSeconds, idlePollMs: deps.config.jobPollMs } });
  const events = createEventBus({ db, logger });
  // Finished jobs and old events are deleted by a job that reschedules itself (server.ts schedules the first).
  const retention = createRetention({ db, queue });
  queue.register(PRUNE_JOB, async (_payload, job) => void (await retention.run(job.id)));
  return { db, writeWatch, queue, events, retention };
}

export type PlatformFamily = ReturnType<typeof composePlatform>;
