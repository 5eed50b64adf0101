import { describe, expect, it } from 'vitest';
import { MERGE_STEPS, type MergeStep } from '../../../../domains/merge-requests/merging/index.js';
import { openPostgres } from '../../../../platform/db/postgres.js';
import { createRootToken, gitIn, refContains, restartableServer } from '../../../../test-support/crash-servers.js';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { gitbeakerClient } from '../../../../test-support/server.js';

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

describe(`merges interrupted by SIGKILL (${testDatabaseKind()})`, () => {
  const server = restartableServer('trkill-');
  const start = (crashAt?: MergeStep) => server.start(crashAt ? { TRIBUTARY_TEST_CRASH_AT: crashAt } : {});
  const git = (projectId: number, args: string[]) => gitIn(server.dataDir, projectId, args);
  const contains = (projectId: number, commit: string) => refContains(server.dataDir, projectId, commit);

  it('reconciles a merge killed at every step: merged only when the target holds it, otherwise open and mergeable', { timeout: 600_000 }, async () => {
    let running = await start(MERGE_STEPS[0]);
    const databaseUrl = server.databaseUrl();
    // `tributary token create` (through the running server's socket on PGlite); the token outlives restarts.
    const token = await createRootToken(server.dataDir, databaseUrl, 'crash');
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
