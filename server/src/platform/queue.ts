import type { Database, Queryable } from './db/database.js';
import type { Logger } from './logger.js';

/**
 * A durable job queue in PostgreSQL. Workers claim one row at a time with
 * FOR UPDATE SKIP LOCKED, so any number of processes can work one queue; a
 * claimed job carries a lease (locked_until) and the claiming process's
 * session name (locked_by, see Database.sessionName). While the handler runs,
 * the worker renews the lease every third of it (the heartbeat).
 * A job is claimed again:
 * - at once when no session named locked_by is left in pg_stat_activity (a
 *   killed process's connections close with it; on PGlite, where one process
 *   owns the database, any other name is a previous, dead process);
 * - when its lease ends without a heartbeat (a hung or cut-off worker).
 * Finishing is fenced by holder and attempt, so a worker that lost its lease
 * never overwrites the outcome of the worker that took the job over. Jobs run
 * at least once: handlers are idempotent. Failures retry with exponential
 * backoff up to max_attempts.
 */
export const JOBS_CHANNEL = 'tributary_jobs';

export interface JobQueueTiming {
  /** How long a claim lasts without a heartbeat (default 30 s); the heartbeat renews it every third. */
  leaseSeconds: number;
  /** How often an idle worker looks for due jobs and expired leases that no notification announces (default 5 s). */
  idlePollMs: number;
}

export const DEFAULT_JOB_TIMING: JobQueueTiming = { leaseSeconds: 30, idlePollMs: 5_000 };

/**
 * Every background job by queue name, with its payload, as DomainEventMap does for events:
 * enqueue and register are checked against it.
 */
export interface JobPayloadMap {
  /** a deleted project's repository is removed from disk */
  'repository.remove': { projectId: number };
  /** after a push (the project's pushed branches), or for one merge request */
  'merge_requests.refresh': { projectId: number; branches: string[]; userId?: number | null } | { mergeRequestId: number; retargeted: boolean; userId?: number | null };
  'merge_requests.rebase': { mergeRequestId: number; userId: number; skipCi: boolean };
  /** the push event and source branch deletion after a merge */
  'merge_requests.post_merge': { intentId: number };
  /** a merge train is walked: cars rebuilt, merged or ejected (domains/merge-trains/train-refresh.ts) */
  'merge_trains.refresh': { projectId: number; targetBranch: string };
  /** diff threads and drafts traced onto a merge request's latest version */
  'notes.update_diff_positions': { mergeRequestId: number };
  /** system notes not written yet: a version's "added N commits", and after an upgrade older events */
  'notes.system_notes': { mergeRequestId: number };
  /** suggestion rows of diff notes written before rows were recorded with the note (after an upgrade) */
  'suggestions.catch_up': Record<string, never>;
  /** a pushed branch or tag gets its CI/CD pipeline (domains/pipelines/pipeline-creation.service.ts) */
  'pipelines.create_for_push': { projectId: number; userId: number | null; ref: string; oldSha: string; newSha: string; pushOptions?: string[] };
  /** a delayed CI/CD job whose time came becomes pending */
  'pipelines.enqueue_scheduled': { jobId: number };
  /** a trigger job became pending: its child or multi-project pipeline is created (domains/pipelines/downstream/) */
  'pipelines.create_downstream': { bridgeId: number };
  /** a triggered pipeline changed status: a bridge with `strategy` follows it */
  'pipelines.update_bridge_status': { pipelineId: number };
  /** a canceled pipeline's child pipeline is canceled too */
  'pipelines.cancel_pipeline': { pipelineId: number };
  /** a resource group's resource is free or wanted: the next waiting job takes it */
  'pipelines.assign_resource': { projectId: number; key: string };
  'pipelines.create_for_merge_request': { mergeRequestId: number; versionId: number; userId: number | null };
  /** due pipeline schedules are claimed and their runs enqueued (domains/pipeline-schedules/pipeline-schedule-runner.ts) */
  'pipelines.run_due_schedules': Record<string, never>;
  /** one run of a pipeline schedule: as its owner, or as the user who played it */
  'pipelines.run_schedule': { scheduleId: number; userId?: number };
  /** an environment whose auto_stop_at has come stops (domains/environments/) */
  'environments.auto_stop': { environmentId: number };
  /** finished jobs and old events are deleted (platform/retention.ts) */
  'platform.prune': Record<string, never>;
  /** CI jobs whose runner went silent or vanished are failed (domains/runner-protocol/stuck-jobs.ts) */
  'ci.stuck_jobs': Record<string, never>;
  /** a finished CI job's coverage (its log and `coverage` regex) and its junit and Cobertura reports are read (domains/ci-reports/) */
  'ci_reports.ingest': { jobId: number };
  /** a merge request with auto-merge set is merged, aborted or left waiting (domains/auto-merge/) */
  'auto_merge.evaluate': { mergeRequestId: number };
}

/** A map of any names and payloads, for tests of the queue itself. */
export type UntypedJobs = Record<string, Record<string, unknown>>;

export interface JobRow<P = unknown> {
  id: number;
  queue: string;
  payload: P;
  attempts: number;
  max_attempts: number;
}

export type JobHandler<P = Record<string, unknown>> = (payload: P, job: JobRow<P>) => Promise<void>;

export interface JobQueue<M extends object = JobPayloadMap> {
  enqueue<K extends keyof M & string>(queue: K, payload: M[K], options?: { runAt?: Date; maxAttempts?: number; tx?: Queryable }): Promise<number>;
  register<K extends keyof M & string>(queue: K, handler: JobHandler<M[K]>): void;
  /** Claims and runs one ready job; resolves false when none was ready. */
  runOnce(): Promise<boolean>;
  /** Runs until every ready job is done (tests and the CLI use this). */
  drain(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Backoff before attempt n+1: 2^n seconds, capped at an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(2 ** attempts, 3600);
}

export function createJobQueue<M extends object = JobPayloadMap>(deps: {
  db: Database;
  logger: Pick<Logger, 'error' | 'warn'>;
  timing?: Partial<JobQueueTiming>;
}): JobQueue<M> {
  const { leaseSeconds, idlePollMs } = { ...DEFAULT_JOB_TIMING, ...deps.timing };
  const me = deps.db.sessionName;
  const handlers = new Map<string, JobHandler<unknown>>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let loop: Promise<void> | undefined;

  async function claim(): Promise<JobRow | undefined> {
    const queues = [...handlers.keys()];
    if (queues.length === 0) return undefined;
    const { rows } = await deps.db.query<JobRow>(
      `UPDATE background_jobs SET state = 'running', attempts = attempts + 1,
              locked_until = now() + make_interval(secs => $2), locked_by = $3
        WHERE id = (
          SELECT j.id FROM background_jobs j
           WHERE j.queue = ANY($1)
             AND ((j.state = 'pending' AND j.run_at <= now())
                  OR (j.state = 'running' AND (j.locked_until < now()
                      OR (j.locked_by IS DISTINCT FROM $3 AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = j.locked_by)))))
           ORDER BY j.run_at, j.id
           LIMIT 1
           FOR UPDATE SKIP LOCKED)
        RETURNING id, queue, payload, attempts, max_attempts`,
      [queues, leaseSeconds, me],
    );
    return rows[0];
  }

  /** The holder and attempt that may renew or finish a claim (another worker may have taken it over). */
  const FENCE = `id = $1 AND state = 'running' AND locked_by = $2 AND attempts = $3`;

  /** Renews the claim every third of the lease while `job` runs. */
  function heartbeat(job: JobRow): () => void {
    const timer = setInterval(() => {
      deps.db
        .query(`UPDATE background_jobs SET locked_until = now() + make_interval(secs => $4) WHERE ${FENCE}`, [job.id, me, job.attempts, leaseSeconds])
        .then(({ rowCount }) => {
          if (rowCount === 0) deps.logger.warn({ jobId: job.id, queue: job.queue }, 'background job lease lost: another worker took the job over');
        })
        .catch((error: unknown) => deps.logger.warn({ jobId: job.id, err: error }, 'background job heartbeat failed'));
    }, (leaseSeconds * 1000) / 3);
    timer.unref();
    return () => clearInterval(timer);
  }

  async function runOnce(): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    const handler = handlers.get(job.queue)!;
    const stopHeartbeat = heartbeat(job);
    try {
      await handler(job.payload, job);
      stopHeartbeat();
      await deps.db.query(`UPDATE background_jobs SET state = 'done', finished_at = now(), locked_until = NULL WHERE ${FENCE}`, [job.id, me, job.attempts]);
    } catch (error) {
      stopHeartbeat();
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attempts >= job.max_attempts;
      deps.logger.warn({ jobId: job.id, queue: job.queue, attempts: job.attempts, final, err: error }, 'background job failed');
      await deps.db.query(
        `UPDATE background_jobs
            SET state = $4, last_error = $5, locked_until = NULL,
                run_at = now() + make_interval(secs => $6),
                finished_at = CASE WHEN $4 = 'failed' THEN now() END
          WHERE ${FENCE}`,
        [job.id, me, job.attempts, final ? 'failed' : 'pending', message, retryDelaySeconds(job.attempts)],
      );
    }
    return true;
  }

  async function work(): Promise<void> {
    while (running) {
      let didWork = false;
      try {
        didWork = await runOnce();
      } catch (error) {
        deps.logger.error({ err: error }, 'job queue poll failed');
      }
      if (!didWork && running) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, idlePollMs);
        });
        clearTimeout(timer);
        wake = undefined;
      }
    }
  }

  return {
    async enqueue(queue, payload, options = {}) {
      const q = options.tx ?? deps.db;
      const { rows } = await q.query<{ id: number }>(
        'INSERT INTO background_jobs (queue, payload, run_at, max_attempts) VALUES ($1, $2, $3, $4) RETURNING id',
        [queue, JSON.stringify(payload), options.runAt ?? new Date(), options.maxAttempts ?? 5],
      );
      await q.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, queue]);
      return rows[0]!.id;
    },
    register(queue, handler) {
      handlers.set(queue, handler as JobHandler<unknown>);
    },
    runOnce,
    async drain() {
      while (await runOnce()) {
        /* keep going */
      }
    },
    async start() {
      running = true;
      unlisten = await deps.db.listen(JOBS_CHANNEL, () => wake?.());
      loop = work();
    },
    async stop() {
      running = false;
      wake?.();
      await unlisten?.();
      await loop;
    },
  };
}
