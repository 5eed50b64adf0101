/**
 * Two `tributary start` processes on one PostgreSQL database: a job becoming pending through
 * one wakes a runner's request held by the other (the notification crosses processes), and
 * many concurrent requests spread over both hand each job to exactly one runner.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { gitbeakerClient, strongPassword } from '../../../../test-support/server.js';
import { startServerProcess, type ServerProcess } from '../../../../test-support/server-process.js';
import { runCli } from '../../../../test-support/cli.js';

describe.runIf(testDatabaseKind() === 'postgres')('runner protocol across two server processes (PostgreSQL only: PGlite runs one process)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trrun2-'));
  const rootPassword = strongPassword();
  let db: TestDatabase;
  let first: ServerProcess;
  let second: ServerProcess;
  let token: string;

  beforeAll(async () => {
    db = await openTestDatabase();
    const env = { TRIBUTARY_RUNNER_LONG_POLL_SECONDS: '5', TRIBUTARY_JOB_POLL_MS: '200' };
    first = await startServerProcess({ dataDir, databaseUrl: db.url!, rootPassword, env });
    second = await startServerProcess({ dataDir, databaseUrl: db.url!, rootPassword, env });
    const created = await runCli(['token', 'create', '--user', 'root', '--name', 'runners', '--scopes', 'api'], { dataDir, databaseUrl: db.url });
    expect(created.code, created.stderr).toBe(0);
    token = created.stdout.trim().split('\n').at(-1)!;
  }, 180_000);

  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const requestJob = (server: ServerProcess, runnerToken: string) =>
    fetch(`${server.url}/api/v4/jobs/request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'RUNNER-TOKEN': runnerToken },
      body: JSON.stringify({ token: runnerToken, info: { name: 'gitlab-runner', version: '17.5.0', features: { refspecs: true, masking: true } }, last_update: '' }),
    });

  it('wakes a request held by one process when a job becomes pending through the other', { timeout: 120_000 }, async () => {
    const api = gitbeakerClient(first.url, token);
    const project = await api.Projects.create({ name: 'wake-across', initializeWithReadme: true });
    const runner = (await api.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { token: string };
    const held = requestJob(second, runner.token);
    await api.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', 'one:\n  script: [true]\n', 'Add CI');
    // A 204 (the hold ran out before the pipeline was created on a loaded machine) is followed by another request.
    let response = await held;
    while (response.status === 204) response = await requestJob(second, runner.token);
    expect(response.status).toBe(201);
  });

  it('hands each job to exactly one runner under concurrent requests on both processes', { timeout: 180_000 }, async () => {
    const api = gitbeakerClient(first.url, token);
    const project = await api.Projects.create({ name: 'race-across', initializeWithReadme: true });
    const runners = [
      (await api.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { token: string },
      (await api.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { token: string },
    ];
    await api.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', 'many:\n  parallel: 10\n  script: [true]\n', 'Add CI');
    await eventually(async () => (await api.Jobs.all(project.id, { scope: ['pending'] as never })).length === 10, 60_000);
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => requestJob(i % 2 === 0 ? first : second, runners[i % 4 < 2 ? 0 : 1]!.token)));
    expect(responses.every((r) => r.status === 201 || r.status === 204)).toBe(true);
    const picked = await Promise.all(responses.filter((r) => r.status === 201).map(async (r) => ((await r.json()) as { id: number }).id));
    expect(picked).toHaveLength(10);
    expect(new Set(picked).size).toBe(10);
    const running = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ci_builds WHERE project_id = $1 AND status = 'running' AND runner_id IS NOT NULL`, [project.id])).rows[0]!.n;
    expect(running).toBe(10);
  });
});
