import { describe, expect, it } from 'vitest';
import { MERGE_STEPS, type MergeStep } from '../../../../domains/merge-requests/merging/index.js';
import { gitIn, refContains, twoServersOnOneDatabase } from '../../../../test-support/crash-servers.js';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { gitbeakerClient } from '../../../../test-support/server.js';

/**
 * Two servers on one PostgreSQL database; one is SIGKILLed at each step of a merge
 * (merge-steps.ts, TRIBUTARY_TEST_CRASH_AT). The survivor, never restarted, settles the dead
 * server's merge within seconds: the request ends merged exactly when the target branch holds
 * the merge, no merge stays under way, the after-merge steps run, and a merge the crash stopped
 * before the branch moved succeeds through the survivor (no 405).
 */
const isEarly = (step: MergeStep) => step === 'merge:commits-written' || step === 'merge:intent-recorded';

describe.runIf(testDatabaseKind() === 'postgres')('merges whose server died, settled by the surviving server (PostgreSQL only: PGlite runs one process)', () => {
  const servers = twoServersOnOneDatabase('trsurv-');

  const unfinished = async (mergeRequestId: number) =>
    (await servers.db().query<{ n: number }>(`SELECT count(*)::int AS n FROM merge_intents WHERE merge_request_id = $1 AND state IN ('pending', 'ref_moved')`, [mergeRequestId])).rows[0]!.n;

  it('settles the merge at every crash point without a restart', { timeout: 600_000 }, async () => {
    const token = servers.token();
    const api = gitbeakerClient(servers.survivor().url, token);
    const project = await api.Projects.create({ name: 'survivor', initializeWithReadme: true });

    for (const [index, step] of MERGE_STEPS.entries()) {
      const doomed = await servers.startDoomed({ TRIBUTARY_TEST_CRASH_AT: step });
      const source = `crash-${index}`;
      const commit = await api.Commits.create(project.id, source, `Change ${index}`, [{ action: 'create', filePath: `${source}.txt`, content: `${index}\n` }], { startBranch: 'main' });
      const mr = await api.MergeRequests.create(project.id, source, 'main', `Crash at ${step}`);
      await eventually(async () => (await api.MergeRequests.show(project.id, mr.iid)).merge_status === 'can_be_merged', 30_000);

      // The merge through the doomed server never answers: it kills itself at `step`.
      const answered = await gitbeakerClient(doomed.url, token)
        .MergeRequests.merge(project.id, mr.iid, { sha: commit.id, shouldRemoveSourceBranch: true })
        .then(
          () => true,
          () => false,
        );
      expect(answered, `${step}: the server should have died`).toBe(false);
      expect(await doomed.exited).toBe('SIGKILL');

      // The survivor settles it: no merge of the request is left under way.
      await eventually(async () => (await unfinished(mr.id)) === 0, 30_000);
      const after = await api.MergeRequests.show(project.id, mr.iid);
      const landed = refContains(servers.dataDir, project.id, commit.id);
      expect(after.state === 'merged', `${step}: state ${after.state}, landed ${landed}`).toBe(landed);
      expect(landed, step).toBe(!isEarly(step));
      if (isEarly(step)) {
        // open and mergeable through the survivor
        const merged = await api.MergeRequests.merge(project.id, mr.iid, { sha: commit.id, shouldRemoveSourceBranch: true });
        expect(merged.state, step).toBe('merged');
      } else {
        expect(after.merge_commit_sha, step).toBe(gitIn(servers.dataDir, project.id, ['rev-parse', 'refs/heads/main']));
      }
      // the after-merge steps ran through the survivor: the source branch is gone
      await eventually(async () => !(await api.Branches.all(project.id)).some((branch) => branch.name === source), 30_000);
    }
  });
});
