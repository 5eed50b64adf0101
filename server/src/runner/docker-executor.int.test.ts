/**
 * The Docker executor of `tributary runner` end to end, where a Docker daemon runs (skipped
 * elsewhere): the job's script runs in its image with the checkout mounted, and a service
 * started from `services:` answers on the job network under its alias with the variables the
 * job gave it (its own `variables`, expanded with the job's), its entrypoint and its command.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../test-support/database.js';
import { dockerAvailable, ensureTestImage, TEST_IMAGE } from '../test-support/docker-image.js';
import { eventually } from '../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../test-support/repository-fixtures.js';

const SERVICE = "require('http').createServer((request, response) => response.end(process.env.GREETING + ' on ' + process.env.PORT)).listen(Number(process.env.PORT))";
const PROBE = `const ask = (left) => fetch('http://greeter:8080/').then((r) => r.text()).then((text) => console.log('service says: ' + text))
  .catch((error) => (left > 0 ? setTimeout(() => ask(left - 1), 500) : (console.error(error), process.exit(1))));
ask(120);
`;
const CI = `with-service:
  image: ${TEST_IMAGE}
  variables:
    WHO: the job
  services:
    - name: ${TEST_IMAGE}
      alias: greeter
      entrypoint: [node]
      command: ["-e", "${SERVICE.replace(/"/g, '\\"')}"]
      variables:
        GREETING: hello from $WHO
        PORT: "8080"
  script:
    - node probe.js
`;

const available = await dockerAvailable();

describe.skipIf(!available)(`tributary runner: the Docker executor (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let runner: ChildProcess | undefined;
  let output = '';
  const dir = mkdtempSync(join(tmpdir(), 'runner-docker-'));

  beforeAll(async () => {
    await ensureTestImage();
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 5 } });
  }, 300_000);
  afterAll(async () => {
    if (runner && runner.exitCode === null && runner.signalCode === null) {
      runner.kill('SIGTERM');
      await new Promise((resolve) => runner!.once('exit', resolve));
    }
    await fx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the script in the image and reaches a service by alias, with the service’s variables', async () => {
    const project = await fx.createProject('docker-e2e');
    const created = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { token: string };
    const bin = fileURLToPath(new URL('../../bin/tributary.js', import.meta.url));
    runner = spawn(process.execPath, [bin, 'runner', '--url', fx.server.url, '--executor', 'docker', '--builds-dir', join(dir, 'builds'), '--name', 'docker-e2e'], {
      env: { ...process.env, TRIBUTARY_RUNNER_TOKEN: created.token },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    runner.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    runner.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

    await fx.root.Commits.create(project.id, 'main', 'Add CI', [
      { action: 'create', filePath: 'probe.js', content: PROBE },
      { action: 'create', filePath: '.gitlab-ci.yml', content: CI },
    ]);
    type Job = { id: number; name: string; status: string };
    const job = await eventually(async () => (await fx.call<Job[]>('GET', `/projects/${project.id}/jobs`)).body.find((j) => ['success', 'failed'].includes(j.status)), 240_000).catch((error: Error) => {
      throw new Error(`${error.message}\nrunner output:\n${output}`);
    });
    const log = (await fx.call('GET', `/projects/${project.id}/jobs/${job.id}/trace`)).raw.toString();
    expect(job.status, log).toBe('success');
    expect(log).toContain(`Using Docker executor with image ${TEST_IMAGE}`);
    expect(log).toContain('service says: hello from the job on 8080');
  }, 300_000);
});
