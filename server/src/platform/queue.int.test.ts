import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../test-support/database.js';
import { migrate } from './db/migrate.js';
import { createJobQueue } from './queue.js';

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

  it('claims at once a job whose lease holder has no session left', async () => {
    const id = await runningJob('lease-dead', 'tributary:1:deadbeef');
    const ran: number[] = [];
    const queue = createJobQueue({ db, logger: silent });
    queue.register('lease-dead', async (_payload, job) => void ran.push(job.id));
    expect(await queue.runOnce()).toBe(true);
    expect(ran).toEqual([id]);
    const { rows } = await db.query<{ state: string; locked_by: string }>('SELECT state, locked_by FROM background_jobs WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ state: 'done', locked_by: db.sessionName });
  });

  it("leaves alone a job whose holder's session is alive until its lease ends", async () => {
    const id = await runningJob('lease-own', db.sessionName);
    const queue = createJobQueue({ db, logger: silent });
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
      const queue = createJobQueue({ db, logger: silent });
      queue.register('lease-other', async () => undefined);
      expect(await queue.runOnce()).toBe(false);
    } finally {
      await other.end();
    }
    const queue = createJobQueue({ db, logger: silent });
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
