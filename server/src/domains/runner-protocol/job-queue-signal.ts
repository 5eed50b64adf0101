import { randomBytes } from 'node:crypto';
import type { Database } from '../../platform/db/database.js';

/** The channel migration 0030's trigger notifies when a job becomes pending (in any process). */
export const CI_QUEUE_CHANNEL = 'tributary_ci_queue';

/**
 * Wakes the long-polling job requests of this process when a job becomes pending anywhere:
 * PostgreSQL's notification (after commit) bumps a version and resolves every waiter. A request
 * reads the version before it looks at the queue and waits only if the version is still the
 * same afterwards, so a job enqueued between its look and its wait is never missed.
 */
export function createJobQueueSignal(db: Pick<Database, 'listen'>) {
  // GitLab's X-GitLab-Last-Update is an opaque queue value; ours is this process's version.
  const prefix = randomBytes(4).toString('hex');
  let version = 0;
  let waiters = new Set<() => void>();
  let listening: Promise<() => Promise<void>> | null = null;
  let closed = false;

  function bump(): void {
    version += 1;
    const woken = waiters;
    waiters = new Set();
    for (const wake of woken) wake();
  }

  return {
    /** Starts listening (once); the first long-polling request calls it. */
    start(): Promise<void> {
      if (closed) return Promise.resolve();
      listening ??= db.listen(CI_QUEUE_CHANNEL, bump);
      return listening.then(() => undefined);
    },
    version: () => version,
    /** True once the server is shutting down: requests stop waiting. */
    closed: () => closed,
    /** The value sent as X-GitLab-Last-Update. */
    lastUpdate: () => `${prefix}${version.toString(16)}`,
    /** Resolves when the version moves past `seen`, after `ms`, or when `signal` aborts. */
    waitForChange(seen: number, ms: number, signal?: AbortSignal): Promise<void> {
      if (closed || version !== seen || ms <= 0 || signal?.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        waiters.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    },
    /** Tests and same-process callers may announce a change without the database. */
    notify: bump,
    async stop(): Promise<void> {
      closed = true;
      const unlisten = listening ? await listening : null;
      listening = null;
      await unlisten?.();
      bump();
    },
  };
}

export type JobQueueSignal = ReturnType<typeof createJobQueueSignal>;
