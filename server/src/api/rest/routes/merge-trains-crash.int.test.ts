/**
 * A server SIGKILLed while the front car of a merge train merges (TRIBUTARY_TEST_CRASH_AT at each
 * train step, honoured only with NODE_ENV=test), then restarted on the same data directory and
 * database: the train ends consistent. The car ends merged exactly once, the target branch is
 * exactly the commit its pipeline tested, and no car is left `merging`. Killed after the intent
 * but before the target moved, the car goes back on the train, is tested again and merges;
 * killed after the target moved, reconciliation finishes the merge with no new pipeline.
 */
import { describe, expect, it } from 'vitest';
import { TRAIN_STEPS, type TrainStep } from '../../../domains/merge-trains/index.js';
import { createRootToken, gitIn, restartableServer } from '../../../test-support/crash-servers.js';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { runnerClient, TRAIN_CI_CONFIG } from '../../../test-support/merge-train-fixtures.js';
import type { ServerProcess } from '../../../test-support/server-process.js';
import { gitbeakerClient } from '../../../test-support/server.js';

describe(`merge trains killed while the front car merges (${testDatabaseKind()})`, () => {
  const server = restartableServer('trtrain-');
  let running: ServerProcess;
  const start = (crashAt?: TrainStep) => server.start(crashAt ? { TRIBUTARY_TEST_CRASH_AT: crashAt } : {});
  const git = (projectId: number, args: string[]) => gitIn(server.dataDir, projectId, args);

  it('settles the front car from the repository’s truth after a kill at every step of its merge', { timeout: 600_000 }, async () => {
    running = await start(TRAIN_STEPS[0]);
    const token = await createRootToken(server.dataDir, server.databaseUrl(), 'crash');
    let api = gitbeakerClient(running.url, token);
    const project = await api.Projects.create({ name: 'train-crash', initializeWithReadme: true });
    await api.Commits.create(project.id, 'main', 'Add CI', [{ action: 'create', filePath: '.gitlab-ci.yml', content: TRAIN_CI_CONFIG }]);
    const runner = (await api.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as unknown as { token: string };
    const filesOf = (sha: string) => git(project.id, ['ls-tree', '--name-only', sha]).split('\n').filter(Boolean);
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${running!.url}/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    expect((await call('PUT', `/projects/${project.id}`, { merge_pipelines_enabled: true, merge_trains_enabled: true })).status).toBe(200);
    /** Runs every pending job to success until `done`. */
    const runUntil = async <T>(done: () => Promise<T | null | false>, what: string) => {
      const { requestJob, finishJob } = runnerClient(running!.url, runner.token, filesOf);
      return eventually(
        async () => {
          const job = await requestJob();
          if (job) await finishJob(job, 'success');
          return done();
        },
        { ms: 90_000, what },
      );
    };

    for (const [index, step] of TRAIN_STEPS.entries()) {
      if (index > 0) {
        await running.stop();
        running = await start(step);
        api = gitbeakerClient(running.url, token);
      }
      const branch = `crash-${index}`;
      await api.Commits.create(project.id, branch, `Change ${index}`, [{ action: 'create', filePath: `${branch}.txt`, content: `${index}\n` }], { startBranch: 'main' });
      const mr = await api.MergeRequests.create(project.id, branch, 'main', `Crash at ${step}`);
      await eventually(async () => (await api.MergeRequests.show(project.id, mr.iid)).sha, { what: 'the merge request head' });
      expect((await call('POST', `/projects/${project.id}/merge_trains/merge_requests/${mr.iid}`)).status).toBe(201);
      const before = git(project.id, ['rev-parse', 'refs/heads/main']);
      // The front car's pipeline passes; it merges, and the process kills itself at `step` on the way.
      await runUntil(async () => (await call('GET', `/projects/${project.id}/merge_trains/merge_requests/${mr.iid}`)).body.pipeline?.status === 'success', `${step}: the train pipeline passed`).catch(() => null);
      expect(await running.exited, `${step}: the server should have died`).toBe('SIGKILL');

      running = await start();
      api = gitbeakerClient(running.url, token);
      const car = await runUntil(async () => {
        const shown = (await call('GET', `/projects/${project.id}/merge_trains/merge_requests/${mr.iid}`)).body;
        return shown.status === 'merged' ? shown : null;
      }, `${step}: the car merged after the restart`);
      const main = git(project.id, ['rev-parse', 'refs/heads/main']);
      // what was merged is what was tested, merged once
      expect(car.pipeline.status).toBe('success');
      expect(main).toBe(car.pipeline.sha);
      expect(git(project.id, ['rev-parse', `${main}^1`])).toBe(before);
      expect((await api.MergeRequests.show(project.id, mr.iid)).state).toBe('merged');
      expect((await api.MergeRequests.show(project.id, mr.iid)).merge_commit_sha).toBe(main);
      // killed before the target moved: tested again; after: finished from the repository's truth
      const trainPipelines = (await call('GET', `/projects/${project.id}/pipelines?ref=refs/merge-requests/${mr.iid}/train`)).body as unknown as unknown[];
      expect(trainPipelines).toHaveLength(step === 'train:ref-moved' ? 1 : 2);
      const active = (await call('GET', `/projects/${project.id}/merge_trains?scope=active`)).body as unknown as unknown[];
      expect(active).toEqual([]);
    }
  });
});
