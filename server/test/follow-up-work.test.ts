import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus } from '../src/platform/events.js';
import { createJobQueue, type UntypedJobs } from '../src/platform/queue.js';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../src/test-support/database.js';
import { eventually } from '../src/test-support/eventually.js';
import { gitbeakerClient, strongPassword } from '../src/test-support/server.js';
import { startServerProcess, type ServerProcess } from '../src/test-support/server-process.js';
import { runCli } from '../src/test-support/cli.js';
import { unique } from '../src/test-support/rest-fixtures.js';

/**
 * Work that follows an event (the refresh after a push, tracing threads onto a new version)
 * is enqueued by a reaction inside the transaction that records the event, never by a
 * LISTEN/NOTIFY handler: it commits with the event, once, however many processes run and
 * whether or not any of them hears the notification.
 */
const quiet = { error: () => undefined, warn: () => undefined };

describe(`event reactions commit with their event (${testDatabaseKind()})`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db?.close());

  const jobsIn = async (queue: string) => (await db.query<{ payload: { projectId: number } }>('SELECT payload FROM background_jobs WHERE queue = $1 ORDER BY id', [queue])).rows.map((row) => row.payload);

  it('enqueues the reaction’s job with the event, with no listener in any process', async () => {
    const queueName = unique('react');
    // Nobody listens: neither bus is started.
    const bus = createEventBus({ db, logger: quiet });
    const queue = createJobQueue<UntypedJobs>({ db, logger: quiet });
    bus.react('project.created', async (event, tx) => void (await queue.enqueue(queueName, { projectId: event.payload.projectId }, { tx })));
    await db.transaction((tx) => bus.publish('project.created', { projectId: 1 }, tx));
    await bus.publish('project.created', { projectId: 2 }); // no transaction given: the bus opens one
    await bus.publishMany('project.created', [{ projectId: 3 }, { projectId: 4 }]);
    expect(await jobsIn(queueName)).toEqual([{ projectId: 1 }, { projectId: 2 }, { projectId: 3 }, { projectId: 4 }]);
  });

  it('rolls the job back with the event, and the event back with a failing reaction', async () => {
    const queueName = unique('react');
    const bus = createEventBus({ db, logger: quiet });
    const queue = createJobQueue<UntypedJobs>({ db, logger: quiet });
    bus.react('project.deleted', async (event, tx) => {
      await queue.enqueue(queueName, { projectId: event.payload.projectId }, { tx });
      if (event.payload.projectId === 2) throw new Error('reaction failed');
    });
    const before = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM domain_events WHERE type = 'project.deleted'`)).rows[0]!.n;
    await expect(
      db.transaction(async (tx) => {
        await bus.publish('project.deleted', { projectId: 1 }, tx);
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    await expect(bus.publish('project.deleted', { projectId: 2 })).rejects.toThrow('reaction failed');
    expect(await jobsIn(queueName)).toEqual([]);
    expect((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM domain_events WHERE type = 'project.deleted'`)).rows[0]!.n).toBe(before);
  });
});

/*
 * Several processes on one database exist only on PostgreSQL: PGlite is embedded and one
 * process owns its data directory.
 */
describe.runIf(testDatabaseKind() === 'postgres')('pushes while every listener is disconnected, two server processes (PostgreSQL only: PGlite runs one process)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trfw-'));
  const rootPassword = strongPassword();
  let db: TestDatabase;
  let servers: ServerProcess[] = [];
  let token: string;

  beforeAll(async () => {
    db = await openTestDatabase();
    const options = { dataDir, databaseUrl: db.url!, rootPassword };
    // The first start creates root; the second finds it.
    servers.push(await startServerProcess(options));
    servers.push(await startServerProcess(options));
    const created = await runCli(['token', 'create', '--user', 'root', '--name', 'fw', '--scopes', 'api'], { dataDir, databaseUrl: db.url });
    expect(created.code, created.stderr).toBe(0);
    token = created.stdout.trim().split('\n').at(-1)!;
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    servers = [];
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Ends every LISTEN connection of both servers, as a network blip or a database failover would. */
  const dropListeners = async () =>
    (
      await db.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE application_name LIKE 'tributary:%' AND application_name <> $1 AND query LIKE 'LISTEN %'`,
        [db.sessionName],
      )
    ).rows[0]!.n;

  const jobsSince = async (after: number) =>
    (
      await db.query<{ queue: string; state: string; attempts: number; payload: Record<string, unknown> }>(
        `SELECT queue, state, attempts, payload FROM background_jobs WHERE id > $1 AND queue IN ('merge_requests.refresh', 'notes.update_diff_positions') ORDER BY queue, id`,
        [after],
      )
    ).rows;

  it('refreshes the merge request and traces its threads exactly once', { timeout: 120_000 }, async () => {
    const [a, b] = servers.map((server) => gitbeakerClient(server.url, token));
    const project = await a!.Projects.create({ name: unique('fw'), initializeWithReadme: true });
    await a!.Commits.create(project.id, 'topic', 'Topic', [{ action: 'create', filePath: 'topic.txt', content: 'one\n' }], { startBranch: 'main' });
    const mr = await a!.MergeRequests.create(project.id, 'topic', 'main', 'Topic');
    const versionsOf = async () => (await db.query<{ id: number }>('SELECT id FROM merge_request_diffs WHERE merge_request_id = $1', [mr.id])).rows;
    // nothing running or due (the retention job waits for its hour)
    const idle = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM background_jobs WHERE state = 'running' OR (state = 'pending' AND run_at <= now())`)).rows[0]!.n === 0;
    await eventually(idle, 30_000);
    const { rows } = await db.query<{ max: number }>('SELECT coalesce(max(id), 0)::int AS max FROM background_jobs');
    const marker = rows[0]!.max;

    // Both listeners are down, and kept down (each reconnects a second later) while
    // one push goes through each server: no process hears either push.
    await eventually(async () => (await dropListeners()) >= 2, 30_000);
    let dropping = true;
    const keepDropping = (async () => {
      while (dropping) {
        await dropListeners();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    let topicHead: string;
    try {
      topicHead = (await a!.Commits.create(project.id, 'topic', 'Topic: two', [{ action: 'create', filePath: 'two.txt', content: 'two\n' }])).id;
      await b!.Commits.create(project.id, 'main', 'Main moves', [{ action: 'create', filePath: 'main.txt', content: 'main\n' }]);
    } finally {
      dropping = false;
      await keepDropping;
    }

    // The second version is recorded, the threads job runs, the request is rechecked.
    await eventually(async () => (await versionsOf()).length === 2 && (await idle()), 60_000);
    const jobs = await jobsSince(marker);
    expect(jobs.map(({ queue, state, attempts }) => ({ queue, state, attempts }))).toEqual([
      { queue: 'merge_requests.refresh', state: 'done', attempts: 1 },
      { queue: 'merge_requests.refresh', state: 'done', attempts: 1 },
      { queue: 'notes.update_diff_positions', state: 'done', attempts: 1 },
    ]);
    // each refresh also names who pushed (the merge request pipelines it creates run as them)
    expect(jobs.slice(0, 2).map((job) => job.payload)).toEqual([
      expect.objectContaining({ projectId: project.id, branches: ['topic'] }),
      expect.objectContaining({ projectId: project.id, branches: ['main'] }),
    ]);
    expect(jobs[2]!.payload).toEqual({ mergeRequestId: mr.id });
    const shown = await eventually(async () => {
      const current = await b!.MergeRequests.show(project.id, mr.iid);
      return current.merge_status === 'can_be_merged' ? current : null;
    }, 30_000);
    expect(shown.sha).toBe(topicHead!);
  });
});
