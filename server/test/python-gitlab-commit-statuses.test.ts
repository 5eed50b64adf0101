import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../src/test-support/database.js';
import { startTestServer, type TestServer } from '../src/test-support/server.js';

/**
 * Commit statuses through python-gitlab (`commit.statuses.create` and `.list`), the client many
 * outside CI systems post their states with: GitLab's entity, status codes and pipeline.
 */
const PYTHON = process.env.TRIBUTARY_TEST_PYTHON ?? '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./python-gitlab/commit_statuses.py', import.meta.url));

describe.skipIf(!existsSync(PYTHON))(`python-gitlab commit statuses (${testDatabaseKind()})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('creates, updates and lists a commit’s statuses, and its external pipeline follows', async () => {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(PYTHON, [SCRIPT], { env: { ...process.env, TRIBUTARY_URL: server.url, TRIBUTARY_TOKEN: server.root.token, TRIBUTARY_SUFFIX: `${process.pid}`, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 120_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? 1 : 0, stdout, stderr });
      });
    });
    expect(run.stderr, run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      created: ['jenkins', 'running', 'main', 'https://ci.example.com/7'],
      same_job: true,
      listed: [['jenkins', 'success', 91.5]],
      bogus: 400,
      pipeline: ['external', 'success', '91.50'],
    });
  });
});
