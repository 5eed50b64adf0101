import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../test-support/database.js';
import { createJobQueue } from './queue.js';
import { createRetention, PRUNE_JOB } from './retention.js';

const silent = { error: () => undefined, warn: () => undefined };

/** The retention job deletes finished jobs and old events past their retention, and only those. */
describe(`retention (${testDatabaseKind()})`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db?.close());

  async function job(queue: string, state: string, finishedDaysAgo: number | null): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO background_jobs (queue, payload, state, finished_at)
       VALUES ($1, '{}', $2, CASE WHEN $3::int IS NULL THEN NULL ELSE now() - make_interval(days => $3::int) END) RETURNING id`,
      [queue, state, finishedDaysAgo],
    );
    return rows[0]!.id;
  }
  async function event(daysAgo: number): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO domain_events (type, payload, created_at) VALUES ('project.created', '{}', now() - make_interval(days => $1)) RETURNING id`,
      [daysAgo],
    );
    return rows[0]!.id;
  }
  const existing = async (table: string, ids: number[]) =>
    (await db.query<{ id: number }>(`SELECT id FROM ${table} WHERE id = ANY($1) ORDER BY id`, [ids])).rows.map((row) => row.id);
  const pendingPrunes = async () => (await db.query<{ in_future: boolean }>(`SELECT run_at > now() AS in_future FROM background_jobs WHERE queue = $1 AND state = 'pending'`, [PRUNE_JOB])).rows;

  it('deletes done jobs after a week, failed jobs and events after a month, and schedules the next run once', async () => {
    const kept = [await job('r', 'done', 6), await job('r', 'failed', 8), await job('r', 'failed', 29), await job('r', 'pending', null), await job('r', 'running', null)];
    const gone = [await job('r', 'done', 8), await job('r', 'failed', 31)];
    const keptEvents = [await event(29), await event(0)];
    const goneEvents = [await event(31), await event(90)];

    const queue = createJobQueue({ db, logger: silent });
    const retention = createRetention({ db, queue });
    await retention.schedule();
    await retention.schedule();
    expect(await pendingPrunes()).toEqual([{ in_future: false }]);
    queue.register(PRUNE_JOB, async (_payload, claimed) => void (await retention.run(claimed.id)));
    expect(await queue.runOnce()).toBe(true);

    expect(await existing('background_jobs', [...kept, ...gone])).toEqual(kept);
    expect(await existing('domain_events', [...keptEvents, ...goneEvents])).toEqual(keptEvents);
    // the run scheduled the next one, later; a start finding it schedules no other
    await retention.schedule();
    expect(await pendingPrunes()).toEqual([{ in_future: true }]);
    expect(await queue.runOnce()).toBe(false);
  });
});
