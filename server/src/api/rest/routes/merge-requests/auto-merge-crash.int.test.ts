import { describe, expect, it } from 'vitest';
import { twoServersOnOneDatabase } from '../../../../test-support/crash-servers.js';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import type { ServerProcess } from '../../../../test-support/server-process.js';
import { gitbeakerClient } from '../../../../test-support/server.js';

/**
 * Auto-merge with two servers on one PostgreSQL database, one of which SIGKILLs itself when a
 * merge has moved the target branch (TRIBUTARY_TEST_CRASH_AT=merge:ref-moved). Auto-merge is set
 * on a draft; marking it ready enqueues the evaluation, which either server's queue may run. If
 * the doomed one runs it, it dies mid-merge and the survivor settles the merge and then the
 * evaluation (its lease lost with the dead process); if the survivor runs it, it merges. Either
 * way the request ends merged exactly once, no merge is left under way and the setting is gone.
 */
describe.runIf(testDatabaseKind() === 'postgres')('auto-merge across two servers, one dying mid-merge (PostgreSQL only: PGlite runs one process)', () => {
  const servers = twoServersOnOneDatabase('tramc-');
  let doomed: ServerProcess | undefined;

  const count = async (sql: string, params: unknown[]) => (await servers.db().query<{ n: number }>(sql, params)).rows[0]!.n;

  it('merges each request exactly once, whichever server evaluates it', { timeout: 600_000 }, async () => {
    const token = servers.token();
    const api = gitbeakerClient(servers.survivor().url, token);
    const project = await api.Projects.create({ name: 'auto-merge-crash', initializeWithReadme: true });
    let deaths = 0;
    for (let index = 0; index < 3; index++) {
      doomed ??= await servers.startDoomed({ TRIBUTARY_TEST_CRASH_AT: 'merge:ref-moved', TRIBUTARY_JOB_POLL_MS: '200' });
      const source = `auto-${index}`;
      await api.Commits.create(project.id, source, `Change ${index}`, [{ action: 'create', filePath: `${source}.txt`, content: `${index}\n` }], { startBranch: 'main' });
      const mr = await api.MergeRequests.create(project.id, source, 'main', `Draft: auto ${index}`);
      await eventually(async () => (await api.MergeRequests.show(project.id, mr.iid)).detailed_merge_status === 'draft_status', 30_000);
      const set = (await gitbeakerClient(doomed.url, token).MergeRequests.merge(project.id, mr.iid, { mergeWhenPipelineSucceeds: true })) as Record<string, unknown>;
      expect(set).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true });

      // marking it ready is the change that lets it merge: its evaluation runs on either server
      await api.MergeRequests.edit(project.id, mr.iid, { title: `auto ${index}` });
      await eventually(async () => (await api.MergeRequests.show(project.id, mr.iid)).state === 'merged', 60_000);
      await eventually(async () => (await count('SELECT count(*)::int AS n FROM merge_request_auto_merges WHERE merge_request_id = $1', [mr.id])) === 0, 60_000);
      expect(await count(`SELECT count(*)::int AS n FROM merge_intents WHERE merge_request_id = $1 AND state IN ('pending', 'ref_moved')`, [mr.id])).toBe(0);
      expect(await count(`SELECT count(*)::int AS n FROM merge_intents WHERE merge_request_id = $1 AND state = 'done'`, [mr.id])).toBe(1);
      expect(await count(`SELECT count(*)::int AS n FROM merge_request_events WHERE merge_request_id = $1 AND action = 'merged'`, [mr.id])).toBe(1);

      const died = doomed.child.exitCode !== null || doomed.child.signalCode !== null;
      if (died) {
        deaths++;
        doomed = undefined;
      }
    }
    // which server ran each evaluation is the queue's choice; the outcome above is the same either way
    console.info(`auto-merge crash test: the doomed server died mid-merge in ${deaths} of 3 evaluations`);
  });
});
