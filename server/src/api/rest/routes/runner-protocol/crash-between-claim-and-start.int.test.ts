/**
 * A server killed between claiming a pending job for a runner and starting it leaves the job
 * pending with that runner's claim: the stuck-jobs sweep gives the claim back once it is older
 * than STALE_CLAIM_SECONDS, and any runner then takes the job. A running job whose runner went
 * silent is failed by the same sweep (runner_system_failure / stuck_or_timeout_failure), so no
 * job is left in a state it cannot leave.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';

describe(`a crash between claim and start (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number };
  let runnerToken: string;
  let runnerId: number;

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    project = await fx.createProject('crash-claim');
    const created = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { id: number; token: string };
    runnerToken = created.token;
    runnerId = created.id;
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', 'build:\n  script: [make]\n', 'Add CI');
    await eventually(async () => (await fx.root.Jobs.all(project.id, { scope: ['pending'] as never })).length === 1);
  });
  afterAll(() => fx?.close());

  it('gives a claim left behind back to the queue, and a runner takes the job', async () => {
    const db = fx.server.app.db;
    const [job] = (await db.query<{ id: number }>(`SELECT id FROM ci_builds WHERE project_id = $1`, [project.id])).rows;
    // what a process that died right after its claim leaves: pending, claimed, two hours old
    await db.query(`UPDATE ci_builds SET runner_id = $2, updated_at = now() - interval '2 hours' WHERE id = $1`, [job!.id, runnerId]);
    const request = () =>
      fetch(`${fx.server.url}/api/v4/jobs/request`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: runnerToken }) });
    // while the claim stands, nobody gets the job
    expect((await request()).status).toBe(204);

    await fx.server.app.services.stuckJobs.sweep();
    const row = (await db.query<{ status: string; runner_id: number | null }>(`SELECT status, runner_id FROM ci_builds WHERE id = $1`, [job!.id])).rows[0]!;
    expect(row).toEqual({ status: 'pending', runner_id: null });
    const picked = await request();
    expect(picked.status).toBe(201);
    const payload = (await picked.json()) as { id: number; token: string };
    expect(payload.id).toBe(Number(job!.id));
    const done = await fetch(`${fx.server.url}/api/v4/jobs/${payload.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: payload.token, state: 'success' }) });
    expect(done.status).toBe(200);
  });
});
