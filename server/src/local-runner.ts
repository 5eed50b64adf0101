import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from './app.js';
import { adminCommands } from './admin/admin-server.js';

/**
 * `TRIBUTARY_LOCAL_RUNNER=shell` (or `docker`): `tributary start` also runs one `tributary runner`
 * as a child process, registered as an instance runner. Its token is kept in
 * `<data dir>/local-runner/token` (0600) and created again when the server no longer knows it.
 * Off by default: a shell executor runs every project's CI scripts with the server's user rights.
 */
export function localRunnerExecutor(value: string | undefined): 'shell' | 'docker' | undefined {
  if (!value || value === '0' || value === 'false' || value === 'off') return undefined;
  return value === 'docker' ? 'docker' : 'shell';
}

export async function startLocalRunner(options: { app: Pick<App, 'services'>; url: string; dataDir: string; executor: 'shell' | 'docker' }): Promise<{ stop(): Promise<void> }> {
  const dir = join(options.dataDir, 'local-runner');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tokenFile = join(dir, 'token');
  let token = (await readFile(tokenFile, 'utf8').catch(() => '')).trim();
  if (token) {
    const verify = await fetch(`${options.url}/api/v4/runners/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) });
    await verify.arrayBuffer();
    if (verify.status === 403) token = '';
  }
  if (!token) {
    token = (await adminCommands.createLocalRunner(options.app)).token;
    await writeFile(tokenFile, token, { mode: 0o600 });
  }
  const child: ChildProcess = spawn(
    process.execPath,
    [...process.execArgv, process.argv[1]!, 'runner', '--url', options.url, '--builds-dir', join(dir, 'builds'), '--executor', options.executor, '--name', 'local runner'],
    // the token goes through the environment, not the process list
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, TRIBUTARY_RUNNER_TOKEN: token } },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
