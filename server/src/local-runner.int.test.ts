import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './test-support/database.js';
import { freePort } from './test-support/postgres-cluster.js';
import { strongPassword } from './test-support/server.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * `TRIBUTARY_LOCAL_RUNNER=shell tributary start` also runs a runner: an instance runner whose token
 * is kept 0600 in the data directory and reused by the next start; SIGTERM stops both.
 */
// The started server uses its own embedded PGlite (no DATABASE_URL), whichever project runs the file.
describe(`TRIBUTARY_LOCAL_RUNNER (${testDatabaseKind()} project)`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trlocal-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  });

  async function start(): Promise<{ child: ChildProcess; url: string; log: () => string }> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_ROOT_PASSWORD: strongPassword(), HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', TRIBUTARY_LOCAL_RUNNER: 'shell' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts', 'start'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let log = '';
    child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    for (let attempt = 0; !log.includes('(local runner) verified'); attempt++) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`tributary start exited early:\n${log.slice(-4000)}`);
      if (attempt > 1800) throw new Error(`the local runner did not start:\n${log.slice(-4000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { child, url, log: () => log };
  }

  async function stop(child: ChildProcess): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    return exited;
  }

  it('registers an instance runner, keeps its token private, reuses it after a restart, and stops with the server', async () => {
    const first = await start();
    const tokenFile = join(dataDir, 'local-runner', 'token');
    const token = readFileSync(tokenFile, 'utf8');
    expect(token).toMatch(/^glrt-/);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(first.log()).toContain("its scripts run with this server's rights");
    expect(first.log()).not.toContain(token);
    const verify = await fetch(`${first.url}/api/v4/runners/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) });
    expect(verify.status).toBe(200);
    expect(await stop(first.child)).toBe(0);
    expect(first.log()).toContain('shutting down');

    const again = await start();
    expect(readFileSync(tokenFile, 'utf8')).toBe(token);
    expect(await stop(again.child)).toBe(0);
  }, 240_000);
});
