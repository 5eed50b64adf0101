import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractZip } from './archive.js';
import type { JobPayload } from './job.js';
import { createRunner } from './runner.js';

/**
 * The runner against a tiny server that answers as GitLab's runner API documents it (job request,
 * PUT with Job-Status, trace PATCH with Content-Range/Range/416, artifacts authorize, upload and
 * download), with a real git repository, bash and the shell executor.
 */
interface FakeJob {
  payload: JobPayload;
  trace: Buffer;
  final?: Record<string, unknown>;
  cancel?: boolean;
  artifact?: Buffer;
}

function body(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

const RUNNER_TOKEN = 'glrt-test-runner-token-123';
let server: Server;
let url = '';
let dir = '';
let sha = '';
const jobs = new Map<number, FakeJob>();
const queue: number[] = [];
let firstTracePatch = true;
let allDone: () => void;
let onFinal: ((job: FakeJob) => void) | undefined;
const done = new Promise<void>((resolve) => (allDone = resolve));

function payload(id: number, overrides: Partial<JobPayload>): JobPayload {
  return {
    id,
    token: `glcbt-job-${id}-secret`,
    job_info: { name: `job${id}`, project_full_path: 'group/app', project_id: 1 },
    git_info: { repo_url: join(dir, 'origin.git'), ref: 'main', sha, refspecs: ['+refs/heads/main:refs/remotes/origin/main'], depth: 20 },
    runner_info: { timeout: 600 },
    variables: [
      { key: 'CI_JOB_ID', value: String(id), public: true },
      { key: 'SECRET', value: 'hunter2-very-secret', masked: true },
      { key: 'CONFIG_FILE', value: 'config contents', file: true },
    ],
    steps: [],
    ...overrides,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'runner-test-'));
  const work = join(dir, 'work');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@e', ...args], { cwd: work }).toString().trim();
  execFileSync('git', ['init', '-q', '-b', 'main', work]);
  writeFileSync(join(work, 'README.md'), 'hello from the repository\n');
  git('add', '.');
  git('commit', '-qm', 'first');
  sha = git('rev-parse', 'HEAD');
  execFileSync('git', ['clone', '-q', '--bare', work, join(dir, 'origin.git')]);

  server = createServer(async (request, response) => {
    const path = new URL(request.url!, 'http://x').pathname;
    const data = await body(request);
    const send = (status: number, headers: Record<string, string> = {}, text = '') => {
      response.writeHead(status, headers).end(text);
    };
    if (path === '/api/v4/runners/verify') {
      return JSON.parse(data.toString()).token === RUNNER_TOKEN ? send(200, { 'content-type': 'application/json' }, '{"id":7,"token":"x","token_expires_at":null}') : send(403);
    }
    if (path === '/api/v4/jobs/request') {
      const next = queue.shift();
      if (next === undefined) return send(204, { 'X-GitLab-Last-Update': 'u1' });
      return send(201, { 'content-type': 'application/json', 'X-GitLab-Last-Update': 'u2' }, JSON.stringify(jobs.get(next)!.payload));
    }
    const match = /^\/api\/v4\/jobs\/(\d+)(\/.*)?$/.exec(path);
    const job = match ? jobs.get(Number(match[1])) : undefined;
    if (!job) return send(404);
    const status = job.cancel ? 'canceling' : 'running';
    if (request.method === 'PATCH' && match![2] === '/trace') {
      const [start] = String(request.headers['content-range']).split('-').map(Number);
      // the first patch of the run is refused once, as a server that lost a chunk would: the runner resumes from Range
      if (firstTracePatch) {
        firstTracePatch = false;
        return send(416, { Range: `0-${job.trace.length}` });
      }
      if (start !== job.trace.length) return send(416, { Range: `0-${job.trace.length}` });
      job.trace = Buffer.concat([job.trace, data]);
      if (job.payload.id === 4 && job.trace.includes('sleeping')) job.cancel = true;
      return send(202, { Range: `0-${job.trace.length}`, 'Job-Status': status });
    }
    if (request.method === 'PUT' && !match![2]) {
      const update = JSON.parse(data.toString()) as Record<string, unknown>;
      if (update.state !== 'running') {
        job.final = update;
        onFinal?.(job);
        if (jobs.size === 5 && [...jobs.values()].every((j) => j.final)) allDone();
      }
      return send(200, { 'Job-Status': status, 'X-GitLab-Trace-Update-Interval': '1' });
    }
    if (request.method === 'POST' && match![2] === '/artifacts/authorize') return send(200, { 'content-type': 'application/json' }, '{}');
    if (request.method === 'POST' && match![2] === '/artifacts') {
      const form = await new Response(data, { headers: { 'content-type': String(request.headers['content-type']) } }).formData();
      const file = form.get('file') as File;
      expect(file.name).toBe('artifacts.zip');
      job.artifact = Buffer.from(await file.arrayBuffer());
      return send(201, { 'content-type': 'application/json' }, '{}');
    }
    if (request.method === 'GET' && match![2] === '/artifacts') {
      if (request.headers['job-token'] !== job.payload.token || !job.artifact) return send(404);
      return send(200, { 'content-type': 'application/zip' }, job.artifact as unknown as string);
    }
    send(404);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('tributary runner against GitLab’s documented runner API', () => {
  it('runs jobs: sources, variables, masking, artifacts passed on, cache, failures, timeout and cancel', async () => {
    jobs.set(1, {
      trace: Buffer.alloc(0),
      payload: payload(1, {
        steps: [{ name: 'script', script: ['mkdir -p out cached', 'cat README.md > out/a.txt', 'echo skip > out/skip.txt', 'echo "secret is $SECRET"', 'cat "$CONFIG_FILE"', 'echo kept > cached/c.txt'], timeout: 600, when: 'on_success' }],
        artifacts: [{ name: 'a', paths: ['out/'], exclude: ['out/skip.txt'], when: 'on_success', artifact_type: 'archive', artifact_format: 'zip' }],
        cache: [{ key: 'deps', paths: ['cached/'], policy: 'pull-push', when: 'on_success' }],
      }),
    });
    queue.push(1);
    const runner = createRunner({ url, token: RUNNER_TOKEN, concurrent: 2, buildsDir: join(dir, 'builds'), executor: 'shell', name: 'test', log: () => undefined, updateIntervalMs: 50 });
    const running = runner.run();
    // the second wave waits for the first job's artifact
    await new Promise<void>((resolve) => {
      const check = () => (jobs.get(1)!.final ? resolve() : setTimeout(check, 20));
      check();
    });
    jobs.set(2, {
      trace: Buffer.alloc(0),
      payload: payload(2, {
        steps: [
          { name: 'script', script: ['cat out/a.txt', 'test ! -e out/skip.txt', 'cat cached/c.txt'], timeout: 600, when: 'on_success' },
          { name: 'after_script', script: ['echo after ran'], timeout: 60, when: 'always' },
        ],
        cache: [{ key: 'deps', paths: ['cached/'], policy: 'pull' }],
        dependencies: [{ id: 1, name: 'job1', token: jobs.get(1)!.payload.token, artifacts_file: { filename: 'artifacts.zip', size: 1 } }],
      }),
    });
    jobs.set(3, {
      trace: Buffer.alloc(0),
      payload: payload(3, {
        steps: [
          { name: 'script', script: ['echo before', 'if false | true; then echo pipefail-off; else echo pipefail-on; fi', 'exit 3', 'echo never'], timeout: 600, when: 'on_success' },
          { name: 'after_script', script: ['echo after the failure'], timeout: 60, when: 'always' },
        ],
        artifacts: [{ name: 'on-failure', paths: ['README.md'], when: 'on_failure', artifact_type: 'archive', artifact_format: 'zip' }],
      }),
    });
    jobs.set(4, { trace: Buffer.alloc(0), payload: payload(4, { steps: [{ name: 'script', script: ['echo sleeping', 'sleep 60 & wait', 'echo woke'], timeout: 600, when: 'on_success' }] }) });
    jobs.set(5, { trace: Buffer.alloc(0), payload: payload(5, { runner_info: { timeout: 1 }, steps: [{ name: 'script', script: ['sleep 60'], timeout: 600, when: 'on_success' }] }) });
    queue.push(2, 3, 4, 5);
    await done;
    runner.stop();
    await running;

    const text = (id: number) => jobs.get(id)!.trace.toString();
    expect(jobs.get(1)!.final).toMatchObject({ state: 'success', exit_code: 0, output: { bytesize: jobs.get(1)!.trace.length } });
    expect(text(1)).toContain('\x1b[32;1m$ echo "secret is $SECRET"\x1b[0;m');
    expect(text(1)).toContain('secret is [MASKED]');
    expect(text(1)).toContain('config contents');
    expect(text(1).split('\r\u001b[0K').some((part) => /section_start:\d+:step_script$/.test(part))).toBe(true);
    expect(text(1)).not.toContain('hunter2');
    expect(text(1)).not.toContain('glcbt-job-1-secret');
    const extracted = mkdtempSync(join(dir, 'artifact-'));
    await extractZip(await writeTemp(jobs.get(1)!.artifact!), extracted);
    expect(readFileSync(join(extracted, 'out/a.txt'), 'utf8')).toBe('hello from the repository\n');

    expect(jobs.get(2)!.final).toMatchObject({ state: 'success' });
    expect(text(2)).toContain('hello from the repository');
    expect(text(2)).toContain('kept');
    expect(text(2)).toContain('after ran');

    expect(jobs.get(3)!.final).toMatchObject({ state: 'failed', failure_reason: 'script_failure', exit_code: 3 });
    expect(text(3)).toContain('before');
    expect(text(3)).toContain('\npipefail-on');
    expect(text(3)).not.toContain('\nnever');
    expect(text(3)).toContain('after the failure');
    expect(jobs.get(3)!.artifact).toBeDefined();

    expect(jobs.get(4)!.final).toMatchObject({ state: 'failed', failure_reason: 'job_canceled' });
    expect(text(4)).not.toContain('woke');
    expect(text(4)).toContain('ERROR: Job failed: canceled');

    expect(jobs.get(5)!.final).toMatchObject({ state: 'failed', failure_reason: 'job_execution_timeout' });
    expect(text(5)).toContain('ERROR: Job failed: execution took longer than 1s seconds');
  });
});

describe('stopping the runner', () => {
  it('stops a running job, reports it failed (runner_system_failure) and returns', async () => {
    jobs.clear();
    jobs.set(6, { trace: Buffer.alloc(0), payload: payload(6, { steps: [{ name: 'script', script: ['echo long job', 'sleep 60', 'echo finished'], timeout: 600, when: 'on_success' }] }) });
    queue.push(6);
    const final = new Promise<FakeJob>((resolve) => (onFinal = resolve));
    const runner = createRunner({ url, token: RUNNER_TOKEN, concurrent: 1, buildsDir: join(dir, 'builds'), executor: 'shell', name: 'test', log: () => undefined, updateIntervalMs: 50 });
    const running = runner.run();
    await new Promise<void>((resolve) => {
      const check = () => (jobs.get(6)!.trace.includes('long job') ? resolve() : setTimeout(check, 20));
      check();
    });
    runner.stop();
    await running;
    expect((await final).final).toMatchObject({ state: 'failed', failure_reason: 'runner_system_failure' });
    expect(jobs.get(6)!.trace.toString()).not.toContain('\nfinished');
  });
});

async function writeTemp(content: Buffer): Promise<string> {
  const file = join(dir, `zip-${Math.random()}.zip`);
  writeFileSync(file, content);
  return file;
}
