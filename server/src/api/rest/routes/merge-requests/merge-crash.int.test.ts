import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERGE_STEPS, type MergeStep } from '../../../../domains/merge-requests/merging/index.js';
import { repositoryPath } from '../../../../git/storage.js';
import { openPostgres } from '../../../../platform/db/postgres.js';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { seedPgliteDir } from '../../../../test-support/pglite-template.js';
import { createTestDatabase, freePort } from '../../../../test-support/postgres-cluster.js';
import { gitbeakerClient, strongPassword } from '../../../../test-support/server.js';
import { runCli } from '../../../../test-support/cli.js';

/**
 * The server SIGKILLed during a merge, at each step (merge-steps.ts), then restarted on the
 * same data directory and database: every merge request ends merged exactly when the target
 * branch contains its merge, nothing merged before is lost, and the ones left open merge on a
 * retry. A real `tributary start` process (tsx), armed with TRIBUTARY_TEST_CRASH_AT (honoured
 * only with NODE_ENV=test).
 *
 * Each start is armed for the next step, so one start both reconciles the previous crash and
 * produces the next one; the last start is unarmed and retries what stayed open.
 */
/** Killed before the target branch moved: the merge did not happen. */
const isEarly = (step: MergeStep) => step === 'merge:commits-written' || step === 'merge:intent-recorded';

const REPO_ROOT = fileURLToPath(new URL('../../../../../../', import.meta.url));

interface Running {
  child: ChildProcess;
  url: string;
  exited: Promise<NodeJS.Signals | number | null>;
}

describe(`merges interrupted by SIGKILL (${testDatabaseKind()})`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trkill-'));
  const rootPassword = strongPassword();
  let databaseUrl: string | undefined;
  let dropDatabase = async () => undefined as void;
  let running: Running | undefined;
  let log = '';

  async function start(crashAt?: MergeStep): Promise<Running> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      TRIBUTARY_DATA_DIR: dataDir,
      TRIBUTARY_ROOT_PASSWORD: rootPassword,
      TRIBUTARY_EXTERNAL_URL: url,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...(crashAt ? { TRIBUTARY_TEST_CRASH_AT: crashAt } : {}),
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts', 'start'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`tributary start exited early:\n${log.slice(-4000)}`);
      const ok = await fetch(`${url}/api/v4/version`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) return { child, url, exited };
      if (Date.now() > deadline) throw new Error(`tributary start did not answer:\n${log.slice(-4000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const git = (projectId: number, args: string[]) =>
    execFileSync('git', [`--git-dir=${repositoryPath(dataDir, projectId)}`, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' } }).trim();
  const contains = (projectId: number, commit: string) => {
    try {
      git(projectId, ['merge-base', '--is-ancestor', commit, 'refs/heads/main']);
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    if (testDatabaseKind() === 'postgres') {
      const database = await createTestDatabase();
      databaseUrl = database.url;
      dropDatabase = database.drop;
    } else {
      await seedPgliteDir(join(dataDir, 'pglite'));
    }
  });

  afterAll(async () => {
    if (running?.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGTERM');
      await running.exited;
    }
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reconciles a merge killed at every step: merged only when the target holds it, otherwise open and mergeable', { timeout: 600_000 }, async () => {
    running = await start(MERGE_STEPS[0]);
    // `tributary token create` (through the running server's socket on PGlite); the token outlives restarts.
    const created = await runCli(['token', 'create', '--user', 'root', '--name', 'crash', '--scopes', 'api'], { dataDir, databaseUrl });
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim().split('\n').at(-1)!;
    let api = gitbeakerClient(running.url, token);
    const project = await api.Projects.create({ name: 'crash', initializeWithReadme: true });
    const cases: Array<{ step: MergeStep; iid: number; head: string }> = [];

    for (const [index, step] of MERGE_STEPS.entries()) {
      const source = `crash-${index}`;
      const commit = await api.Commits.create(project.id, source, `Change ${index}`, [{ action: 'create', filePath: `${source}.txt`, content: `${index}\n` }], { startBranch: 'main' });
      const mr = await api.MergeRequests.create(project.id, source, 'main', `Crash at ${step}`);
      cases.push({ step, iid: mr.iid, head: commit.id });
      const before = git(project.id, ['rev-parse', 'refs/heads/main']);

      // The merge never answers: the process kills itself at `step`.
      const answered = await api.MergeRequests.merge(project.id, mr.iid, { sha: commit.id, shouldRemoveSourceBranch: true }).then(
        () => true,
        () => false,
      );
      expect(answered, `${step}: the server should have died`).toBe(false);
      expect(await running.exited).toBe('SIGKILL');

      running = await start(MERGE_STEPS[index + 1]);
      api = gitbeakerClient(running.url, token);
      const after = await api.MergeRequests.show(project.id, mr.iid);
      const landed = contains(project.id, commit.id);
      // consistency: merged exactly when the target branch holds the merge
      expect(after.state === 'merged', `${step}: state ${after.state}, landed ${landed}`).toBe(landed);
      const early = isEarly(step);
      expect(landed).toBe(!early);
      if (early) expect(git(project.id, ['rev-parse', 'refs/heads/main'])).toBe(before);
      else expect(after.merge_commit_sha).toBe(git(project.id, ['rev-parse', 'refs/heads/main']));
      // nothing merged before is lost
      for (const previous of cases.slice(0, -1)) if (!isEarly(previous.step)) expect(contains(project.id, previous.head), previous.step).toBe(true);
      // Its after-merge job finishes before the next crash (a job the killed process had claimed
      // is taken again by the next process at once, platform/queue.ts).
      if (!early) await eventually(async () => !(await api.Branches.all(project.id)).some((branch) => branch.name === source), 60_000);
    }

    // The last start is unarmed: the requests left open merge on a retry, every one lands.
    for (const { step, iid, head } of cases) {
      const current = await api.MergeRequests.show(project.id, iid);
      if (current.state === 'opened') expect((await api.MergeRequests.merge(project.id, iid, { sha: head })).state, step).toBe('merged');
      expect(contains(project.id, head), step).toBe(true);
    }
    // the after-merge steps ran for every merge, once reconciled (source branches deleted as asked)
    const merged = cases.filter((c) => !isEarly(c.step)).map(({ step }) => `crash-${MERGE_STEPS.indexOf(step)}`);
    await eventually(async () => (await api.Branches.all(project.id)).every((branch) => !merged.includes(branch.name)), 60_000);
    // On PostgreSQL the test can read the intents too: none left unfinished, every merge done once
    // with its after-merge steps, and the merge killed before its branch moved failed as interrupted.
    if (databaseUrl) {
      const db = await openPostgres(databaseUrl);
      try {
        const read = () =>
          db.query<{ iid: number; state: string; error: string | null; post_merge_done: boolean }>(
            `SELECT m.iid, i.state, i.error, i.post_merge_done FROM merge_intents i JOIN merge_requests m ON m.id = i.merge_request_id ORDER BY i.id`,
          );
        await eventually(async () => (await read()).rows.every((row) => row.state !== 'done' || row.post_merge_done));
        const { rows } = await read();
        for (const { step, iid } of cases) {
          const intents = rows.filter((row) => row.iid === iid);
          expect(intents.filter((row) => row.state === 'done').map((row) => row.post_merge_done), step).toEqual([true]);
          expect(intents.filter((row) => row.state !== 'done'), step).toEqual(step === 'merge:intent-recorded' ? [{ iid, state: 'failed', error: 'interrupted', post_merge_done: false }] : []);
        }
      } finally {
        await db.close();
      }
    }
  });
});
