import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../test-support/database.js';
import { migrate } from './db/migrate.js';
import { eventually } from '../test-support/eventually.js';
import { createJobQueue, type UntypedJobs } from './queue.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const silent = { error: () => undefined, warn: () => undefined };

/** Leases name the process that holds them: a dead process's jobs run again at once. */
describe(`job leases (${testDatabaseKind()})`, () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
    await migrate(db);
  });
  afterAll(() => db?.close());

  async function runningJob(queue: string, lockedBy: string): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO background_jobs (queue, payload, state, attempts, locked_until, locked_by)
       VALUES ($1, '{}', 'running', 1, now() + interval '5 minutes', $2) RETURNING id`,
      [queue, lockedBy],
    );
    return rows[0]!.id;
  }

  // On PGlite, one process owns the database: a holder of another name is a previous, dead process.
  it('claims at once a job whose lease holder has no session left', async () => {
    const id = await runningJob('lease-dead', 'tributary:1:deadbeef');
    const ran: number[] = [];
    const queue = createJobQueue<UntypedJobs>({ db, logger: silent });
    queue.register('lease-dead', async (_payload, job) => void ran.push(job.id));
    expect(await queue.runOnce()).toBe(true);
    expect(ran).toEqual([id]);
    const { rows } = await db.query<{ state: string; locked_by: string }>('SELECT state, locked_by FROM background_jobs WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ state: 'done', locked_by: db.sessionName });
  });

  it("leaves alone a job whose holder's session is alive until its lease ends", async () => {
    const id = await runningJob('lease-own', db.sessionName);
    const queue = createJobQueue<UntypedJobs>({ db, logger: silent });
    queue.register('lease-own', async () => undefined);
    expect(await queue.runOnce()).toBe(false);
    await db.query(`UPDATE background_jobs SET locked_until = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await queue.runOnce()).toBe(true);
  });

  // Another live process: a second connection under its own session name.
  it.runIf(testDatabaseKind() === 'postgres')('leaves alone the jobs of another live process', async () => {
    const other = new pg.Client({ connectionString: db.url, application_name: 'tributary:2:alive' });
    await other.connect();
    try {
      await runningJob('lease-other', 'tributary:2:alive');
      const queue = createJobQueue<UntypedJobs>({ db, logger: silent });
      queue.register('lease-other', async () => undefined);
      expect(await queue.runOnce()).toBe(false);
    } finally {
      await other.end();
    }
    const queue = createJobQueue<UntypedJobs>({ db, logger: silent });
    queue.register('lease-other', async () => undefined);
    // Its connection closed: the process is gone, and its job runs again.
    let claimed = false;
    for (let i = 0; i < 50 && !claimed; i++) {
      claimed = await queue.runOnce();
      if (!claimed) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(claimed).toBe(true);
  });
});

/** The heartbeat renews a running job's lease; a worker that stops renewing it loses the job. */
describe(`job heartbeats (${testDatabaseKind()})`, () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
    await migrate(db);
  });
  afterAll(() => db?.close());

  const lease = async (id: number) =>
    (await db.query<{ state: string; locked_by: string | null; attempts: number; ends_in_ms: number | null }>(
      `SELECT state, locked_by, attempts, (extract(epoch FROM locked_until - now()) * 1000)::int AS ends_in_ms FROM background_jobs WHERE id = $1`,
      [id],
    )).rows[0]!;

  it('keeps a job that runs longer than its lease with the worker that runs it', async () => {
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started = () => undefined as void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const worker = createJobQueue<UntypedJobs>({ db, logger: silent, timing: { leaseSeconds: 1.5 } });
    worker.register('heartbeat-long', async () => {
      started();
      await released;
    });
    const id = await worker.enqueue('heartbeat-long', {});
    const run = worker.runOnce();
    await running;
    // The first claim's lease ends 1.5 s after the claim; wait until the database's clock is past it.
    const { rows } = await db.query<{ first_end: Date }>('SELECT locked_until AS first_end FROM background_jobs WHERE id = $1', [id]);
    await eventually(async () => (await db.query<{ past: boolean }>('SELECT now() > $1::timestamptz AS past', [rows[0]!.first_end])).rows[0]!.past);
    // Past the first lease, the heartbeat has renewed it: nobody else may take the job.
    const other = createJobQueue<UntypedJobs>({ db, logger: silent });
    other.register('heartbeat-long', async () => undefined);
    expect(await other.runOnce()).toBe(false);
    expect((await lease(id)).state).toBe('running');
    release();
    await run;
    expect(await lease(id)).toMatchObject({ state: 'done', attempts: 1 });
  });

  /*
   * A second worker process exists only on PostgreSQL: PGlite is embedded in one process, where
   * a dead worker is a previous process of the data directory (claimed at once, above).
   */
  describe.runIf(testDatabaseKind() === 'postgres')('a worker in another process (PostgreSQL only: PGlite runs one process)', () => {
    const children: ChildProcess[] = [];
    afterAll(() => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });

    /** A child process that claims one job of `queue` and holds it (test-support/job-worker-child.ts). */
    async function childWorker(queue: string, leaseSeconds: number) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/test-support/job-worker-child.ts', db.url!, queue, String(leaseSeconds)], {
        cwd: REPO_ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      children.push(child);
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      await eventually(async () => out.includes('claimed ') || child.exitCode !== null, 60_000);
      expect(out).toContain('claimed ');
      return { child, exited, output: () => out };
    }

    it('takes over at once the job of a worker process that was killed', async () => {
      const queue = createJobQueue<UntypedJobs>({ db, logger: silent });
      const ran: number[] = [];
      queue.register('killed-worker', async (_payload, job) => void ran.push(job.attempts));
      const id = await queue.enqueue('killed-worker', {});
      // A long lease: only the dead holder's missing session can free the job.
      const { child, exited } = await childWorker('killed-worker', 300);
      expect((await lease(id)).state).toBe('running');
      expect(await queue.runOnce()).toBe(false);
      child.kill('SIGKILL');
      await exited;
      await eventually(() => queue.runOnce());
      expect(ran).toEqual([2]);
      expect(await lease(id)).toMatchObject({ state: 'done', locked_by: db.sessionName });
    });

    it('takes over the job of a hung worker process when its heartbeat stops, and keeps the result when it wakes', async () => {
      const queue = createJobQueue<UntypedJobs>({ db, logger: silent });
      const ran: number[] = [];
      queue.register('hung-worker', async (_payload, job) => void ran.push(job.attempts));
      const id = await queue.enqueue('hung-worker', {});
      const worker = await childWorker('hung-worker', 1);
      // Hung: its connections stay open (its session is listed), but it renews nothing.
      worker.child.kill('SIGSTOP');
      await eventually(() => queue.runOnce());
      expect(ran).toEqual([2]);
      expect(await lease(id)).toMatchObject({ state: 'done', attempts: 2, locked_by: db.sessionName });
      // It wakes up and finishes its stale attempt: the outcome of the takeover stands.
      worker.child.kill('SIGCONT');
      worker.child.stdin!.write('finish\n');
      await eventually(async () => worker.output().includes('finished'), 30_000);
      await worker.exited;
      expect(await lease(id)).toMatchObject({ state: 'done', attempts: 2, locked_by: db.sessionName });
    });
  });
});
