import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInGroup } from './process.js';

const dir = mkdtempSync(join(tmpdir(), 'process-group-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits (by polling the process table, never by a fixed delay) until `pid` is gone; false if it outlives `tries` looks. */
async function gone(pid: number, tries = 500): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

describe('runInGroup: cancellation kills the job’s whole process group', () => {
  it('a cancel ends the script and the background process it started', async () => {
    const pidFile = join(dir, 'cancel.pid');
    const controller = new AbortController();
    const output: string[] = [];
    const result = runInGroup('bash', ['-c', `sleep 300 & echo $! > ${pidFile}; echo started; wait`], {
      cwd: dir,
      env: { PATH: process.env.PATH },
      signal: controller.signal,
      graceMs: 200,
      onOutput: (chunk) => {
        output.push(chunk.toString());
        if (output.join('').includes('started')) controller.abort();
      },
    });
    expect(await result).toMatchObject({ stopped: 'canceled' });
    const child = Number(readFileSync(pidFile, 'utf8'));
    expect(await gone(child)).toBe(true);
  });

  it('a process the script leaves behind (its output elsewhere) ends with the step', async () => {
    const pidFile = join(dir, 'left.pid');
    const result = await runInGroup('bash', ['-c', `sleep 300 >/dev/null 2>&1 & echo $! > ${pidFile}`], { cwd: dir, env: { PATH: process.env.PATH }, onOutput: () => undefined });
    expect(result.exitCode).toBe(0);
    expect(await gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  });
});
