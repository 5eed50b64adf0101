import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './test-support/database.js';
import { freePort } from './test-support/postgres-cluster.js';
import { strongPassword } from './test-support/server.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The first `tributary start` on an empty data directory creates and migrates the embedded
 * database in a child `tributary migrate` (its memory leaves with it), then serves it; a
 * restart opens it as it is.
 */
describe.runIf(testDatabaseKind() === 'pglite')('tributary start on an empty data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trfirst-'));
  const rootPassword = strongPassword();
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  });

  async function start(): Promise<{ child: ChildProcess; url: string; log: () => string }> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_ROOT_PASSWORD: rootPassword, TRIBUTARY_EXTERNAL_URL: url, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts', 'start'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let log = '';
    child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    for (let attempt = 0; ; attempt++) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`tributary start exited early:\n${log.slice(-4000)}`);
      const ok = await fetch(`${url}/api/v4/version`).then((response) => response.ok, () => false);
      // The server prints its line once it listens, so an answer can arrive before the line does.
      if (ok && log.includes('Tributary is running')) return { child, url, log: () => log };
      if (attempt > 1200) throw new Error(`tributary start did not answer:\n${log.slice(-4000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function stop(child: ChildProcess): Promise<void> {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  it('creates and migrates the database, serves it, and serves it again after a restart', async () => {
    const first = await start();
    expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
    // migrated: a listing reads the tables
    expect((await fetch(`${first.url}/api/v4/projects`)).status).toBe(200);
    expect(first.log()).toContain('Tributary is running');
    await stop(first.child);

    const again = await start();
    expect(again.log()).toContain('Tributary is running');
    expect((await fetch(`${again.url}/api/v4/projects`)).status).toBe(200);
    await stop(again.child);
  }, 240_000);
});
