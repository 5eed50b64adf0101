import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/platform/db/database.js';
import { openPostgres } from '../src/platform/db/postgres.js';
import { createEventBus, type DomainEvent, type EventBus } from '../src/platform/events.js';
import { createJobQueue, type JobHandler, type JobQueue, type UntypedJobs } from '../src/platform/queue.js';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../src/test-support/database.js';
import { unique } from '../src/test-support/rest-fixtures.js';
import { eventually } from '../src/test-support/eventually.js';

/**
 * The platform's job queue and domain events on a real database of the
 * current kind (no HTTP server needed): retries, backoff, leases, and event
 * delivery across connections ("processes") only after commit.
 */

const quiet = { error: () => undefined, warn: () => undefined };

interface JobState {
  state: 'pending' | 'running' | 'done' | 'failed';
  attempts: number;
  last_error: string | null;
  delay_ms: number;
}

describe(`job queue and domain events (${testDatabaseKind()})`, () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db?.close());

  /** A queue (a "worker") serving one queue name with `handler`. */
  function worker(name: string, handler: JobHandler, on: Database = db): JobQueue<UntypedJobs> {
    const queue = createJobQueue<UntypedJobs>({ db: on, logger: quiet });
    queue.register(name, handler);
    return queue;
  }

  async function job(id: number): Promise<JobState> {
    const { rows } = await db.query<JobState>(
      `SELECT state, attempts, last_error, (extract(epoch FROM run_at - now()) * 1000)::int AS delay_ms FROM background_jobs WHERE id = $1`,
      [id],
    );
    return rows[0]!;
  }

  /** Moves a job's next attempt to now, as if its backoff had passed. */
  const skipBackoff = (id: number) => db.query('UPDATE background_jobs SET run_at = now() WHERE id = $1', [id]);

  describe('the job queue', () => {
    it('runs an enqueued job once, with its payload, and marks it done', async () => {
      const name = unique('q');
      const seen: unknown[] = [];
      const queue = worker(name, async (payload) => void seen.push(payload));
      const id = await queue.enqueue(name, { projectId: 42, note: 'hello' });
      expect(await queue.runOnce()).toBe(true);
      expect(await queue.runOnce()).toBe(false);
      expect(seen).toEqual([{ projectId: 42, note: 'hello' }]);
      expect(await job(id)).toMatchObject({ state: 'done', attempts: 1 });
    });

    it('retries a failing job after an exponential backoff, then succeeds', async () => {
      const name = unique('q');
      let calls = 0;
      const queue = worker(name, async () => {
        calls++;
        if (calls === 1) throw new Error('disk on fire');
      });
      const id = await queue.enqueue(name, {});
      await queue.runOnce();
      const failed = await job(id);
      expect(failed).toMatchObject({ state: 'pending', attempts: 1, last_error: 'disk on fire' });
      // 2^1 s before the second attempt: not ready yet.
      expect(failed.delay_ms).toBeGreaterThan(1_000);
      expect(failed.delay_ms).toBeLessThanOrEqual(2_000);
      expect(await queue.runOnce()).toBe(false);

      await skipBackoff(id);
      expect(await queue.runOnce()).toBe(true);
      expect(await job(id)).toMatchObject({ state: 'done', attempts: 2 });
      expect(calls).toBe(2);
    });

    it('waits longer after each failure and gives up as failed after max attempts', async () => {
      const name = unique('q');
      const queue = worker(name, async () => {
        throw new Error('always');
      });
      const id = await queue.enqueue(name, {}, { maxAttempts: 3 });
      const delays: number[] = [];
      for (let attempt = 1; attempt <= 3; attempt++) {
        expect(await queue.runOnce()).toBe(true);
        const state = await job(id);
        expect(state.attempts).toBe(attempt);
        if (attempt < 3) {
          expect(state.state).toBe('pending');
          delays.push(state.delay_ms);
          await skipBackoff(id);
        } else {
          expect(state).toMatchObject({ state: 'failed', last_error: 'always' });
        }
      }
      expect(delays[1]!).toBeGreaterThan(delays[0]!);
      await skipBackoff(id);
      expect(await queue.runOnce()).toBe(false);
    });

    it('gives a job whose worker died to another worker once its lease has expired', async () => {
      const name = unique('q');
      // Worker A claims the job and never finishes (a hung or crashed process).
      const hung = worker(name, () => new Promise<void>(() => undefined));
      const id = await hung.enqueue(name, { n: 1 });
      void hung.runOnce();
      await eventually(async () => (await job(id)).state === 'running', { what: 'worker A to claim the job' });

      const ran: number[] = [];
      const healthy = worker(name, async (payload) => void ran.push(Number(payload.n)));
      // While A's lease lasts, nobody else takes the job.
      expect(await healthy.runOnce()).toBe(false);
      await db.query(`UPDATE background_jobs SET locked_until = now() - interval '1 second' WHERE id = $1`, [id]);
      expect(await healthy.runOnce()).toBe(true);
      expect(ran).toEqual([1]);
      expect(await job(id)).toMatchObject({ state: 'done', attempts: 2 });
    });

    it('runs every job exactly once when two workers drain the same queue', async () => {
      const name = unique('q');
      const second = db.kind === 'postgres' ? await openPostgres(db.url!) : db;
      try {
        const runs = new Map<number, number>();
        const handler: JobHandler = async (payload) => {
          const n = Number(payload.n);
          runs.set(n, (runs.get(n) ?? 0) + 1);
          await new Promise((resolve) => setTimeout(resolve, 5));
        };
        const a = worker(name, handler);
        const b = worker(name, handler, second);
        for (let n = 0; n < 20; n++) await a.enqueue(name, { n });
        await Promise.all([a.drain(), b.drain()]);
        expect([...runs.keys()].sort((x, y) => x - y)).toEqual([...Array(20).keys()]);
        expect([...runs.values()].every((count) => count === 1)).toBe(true);
      } finally {
        if (second !== db) await second.close();
      }
    });

    it('does not enqueue a job whose transaction rolled back', async () => {
      const name = unique('q');
      const queue = worker(name, async () => undefined);
      await expect(
        db.transaction(async (tx) => {
          await queue.enqueue(name, {}, { tx });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await queue.runOnce()).toBe(false);
    });
  });

  describe('domain events', () => {
    const buses: EventBus[] = [];
    const extraDatabases: Database[] = [];
    afterAll(async () => {
      for (const bus of buses) await bus.stop();
      for (const extra of extraDatabases) await extra.close();
    });

    async function bus(on: Database = db): Promise<EventBus> {
      const created = createEventBus({ db: on, logger: quiet });
      await created.start();
      buses.push(created);
      return created;
    }

    /** Collects `project.created` events for the given project ids. */
    function collect(target: EventBus, projectIds: number[]): DomainEvent<'project.created'>[] {
      const received: DomainEvent<'project.created'>[] = [];
      target.subscribe('project.created', (event) => {
        if (projectIds.includes(event.payload.projectId)) received.push(event);
      });
      return received;
    }

    it('delivers an event to a subscriber in the same process, with its payload from the log', async () => {
      const local = await bus();
      const received = collect(local, [1001]);
      const id = await local.publish('project.created', { projectId: 1001 });
      await eventually(() => received.length === 1, { what: 'the event' });
      expect(received[0]).toEqual({ id, type: 'project.created', payload: { projectId: 1001 } });
    });

    // PostgreSQL: two Database instances are two "processes". PGlite belongs to one process,
    // so there the same fan-out is checked between two buses on the one database.
    it(`delivers an event published by one bus to another ${testDatabaseKind() === 'postgres' ? 'on a second connection (another process)' : 'in the same process'}`, async () => {
      const publisher = await bus(db);
      const subscriber = await bus(db.kind === 'postgres' ? await openPostgresTracked() : db);
      const received = collect(subscriber, [2001]);
      const alsoLocal = collect(publisher, [2001]);
      const id = await publisher.publish('project.created', { projectId: 2001 });
      await eventually(() => received.length === 1 && alsoLocal.length === 1, { what: 'delivery to both buses' });
      expect(received[0]).toEqual({ id, type: 'project.created', payload: { projectId: 2001 } });
    });

    it('delivers an event published in a transaction only after the commit', async () => {
      const local = await bus();
      const subscriber = db.kind === 'postgres' ? await bus(await openPostgresTracked()) : local;
      const received = collect(subscriber, [3001]);
      await db.transaction(async (tx) => {
        await local.publish('project.created', { projectId: 3001 }, tx);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(received).toEqual([]);
      });
      await eventually(() => received.length === 1, { what: 'the committed event' });
    });

    it('never delivers an event published in a transaction that rolled back', async () => {
      const local = await bus();
      const subscriber = db.kind === 'postgres' ? await bus(await openPostgresTracked()) : local;
      const received = collect(subscriber, [4001, 4002]);
      await expect(
        db.transaction(async (tx) => {
          await local.publish('project.created', { projectId: 4001 }, tx);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      // A later, committed event: once it has arrived, an earlier one would have too.
      await local.publish('project.created', { projectId: 4002 });
      await eventually(() => received.length >= 1, { what: 'the committed event' });
      expect(received.map((event) => event.payload.projectId)).toEqual([4002]);
      const { rows } = await db.query(`SELECT 1 FROM domain_events WHERE payload->>'projectId' = '4001'`);
      expect(rows).toEqual([]);
    });

    it('publishMany writes one event per payload, in order, delivered one by one after the commit', async () => {
      const local = await bus();
      const subscriber = db.kind === 'postgres' ? await bus(await openPostgresTracked()) : local;
      const projectIds = [5001, 5002, 5003];
      const received = collect(subscriber, projectIds);
      let ids: number[] = [];
      await db.transaction(async (tx) => {
        ids = await local.publishMany('project.created', projectIds.map((projectId) => ({ projectId })), tx);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(received).toEqual([]);
      });
      expect(ids).toHaveLength(3);
      await eventually(() => received.length === 3, { what: 'the three events' });
      const byId = [...received].sort((a, b) => a.id - b.id);
      expect(byId).toEqual(ids.map((id, i) => ({ id, type: 'project.created', payload: { projectId: projectIds[i] } })));
      const { rows } = await db.query<{ payload: { projectId: number } }>(`SELECT payload FROM domain_events WHERE id = ANY($1::bigint[]) ORDER BY id`, [ids]);
      expect(rows.map((row) => row.payload.projectId)).toEqual(projectIds);
    });

    it('publishMany with no payloads writes nothing', async () => {
      const local = await bus();
      const { rows: before } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM domain_events');
      expect(await local.publishMany('project.created', [])).toEqual([]);
      const { rows: after } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM domain_events');
      expect(after[0]!.n).toBe(before[0]!.n);
    });

    async function openPostgresTracked(): Promise<Database> {
      const other = await openPostgres(db.url!);
      extraDatabases.push(other);
      return other;
    }
  });
});
