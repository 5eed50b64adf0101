import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Cleanup } from './cleanup.js';

/** Bench traffic goes to this host only. */
export const BENCH_HOST = '127.0.0.1';

export function assertLocal(url: string): void {
  const { hostname } = new URL(url);
  if (hostname !== BENCH_HOST) throw new Error(`bench traffic must go to ${BENCH_HOST}, not ${hostname}`);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A small environment for children: nothing from the caller's environment
 * (DATABASE_URL, PORT, TRIBUTARY_*, GIT_*) leaks in except PATH, HOME and
 * TMPDIR. The running node comes first on PATH, so `#!/usr/bin/env node`
 * hooks use it too.
 */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: [dirname(process.execPath), process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(':'),
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TZ: 'UTC',
    NODE_ENV: 'production',
  };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, BENCH_HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  /** performance.now() just before spawn() */
  spawnedAt: number;
  /** where stdout and stderr go */
  logFile: string;
  hasExited(): boolean;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
  /** The last lines of the child's output, for error messages. */
  logTail(lines?: number): string;
}

/**
 * Spawns a long-running child whose output goes to a log file (not through
 * the bench process, which must stay idle while it measures). The child is
 * registered with `cleanup`, so it is stopped however the bench ends.
 */
export function spawnChild(
  cleanup: Cleanup,
  options: { name: string; command: string; args: string[]; env: NodeJS.ProcessEnv; cwd?: string; logFile: string },
): Child {
  const fd = openSync(options.logFile, 'a');
  let child: ChildProcess;
  const spawnedAt = performance.now();
  try {
    child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  let exitedFlag = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      exitedFlag = true;
      resolve({ code, signal });
    });
    child.once('error', () => {
      exitedFlag = true;
      resolve({ code: null, signal: null });
    });
  });
  const logTail = (lines = 25) => {
    try {
      return readFileSync(options.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no output)';
    }
  };
  const stopNow = async (graceMs = 10_000) => {
    if (exitedFlag) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const handle: Child = {
    name: options.name,
    pid: child.pid ?? -1,
    process: child,
    spawnedAt,
    logFile: options.logFile,
    hasExited: () => exitedFlag,
    exited,
    stop: stopNow,
    logTail,
  };
  const undo = cleanup.defer(`stop ${options.name}`, () => stopNow(), () => {
    if (!exitedFlag) child.kill('SIGKILL');
  });
  handle.stop = async (graceMs) => {
    await stopNow(graceMs);
    await undo();
  };
  return handle;
}

/** One GET; resolves to the status code, or undefined when the connection fails. */
export function probe(url: string, headers: Record<string, string> = {}, timeoutMs = 2_000): Promise<number | undefined> {
  assertLocal(url);
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', headers, agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', () => resolve(undefined));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/**
 * Polls `url` every `intervalMs` until it answers 200; returns the time in
 * ms from `since` (performance.now()) to that response. Fails fast when the
 * child exits first, and after `timeoutMs`.
 */
export async function waitFor200(url: string, options: { since: number; child?: Child; intervalMs?: number; timeoutMs?: number }): Promise<number> {
  const interval = options.intervalMs ?? 10;
  const deadline = options.since + (options.timeoutMs ?? 60_000);
  let last: number | undefined;
  for (let attempt = 1; ; attempt++) {
    if (options.child?.hasExited()) {
      throw new Error(`${options.child.name} exited before answering ${url}:\n${options.child.logTail()}`);
    }
    last = await probe(url);
    const now = performance.now();
    if (last === 200) return now - options.since;
    if (now > deadline) {
      const tail = options.child ? `\n${options.child.logTail()}` : '';
      throw new Error(`${url} did not answer 200 within ${Math.round(now - options.since)} ms (last: ${last ?? 'no connection'})${tail}`);
    }
    // Keep to a 10 ms grid from `since`, so slow probes do not drift the schedule.
    const next = options.since + attempt * interval;
    if (next > now) await sleep(next - now);
  }
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs a short command to completion (argument array, no shell, bounded in time). */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string | Buffer; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env ?? childEnv(), timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stderr.trim()}`));
          return;
        }
        resolve({ stdout, stderr });
      },
    );
    child.stdin?.on('error', () => undefined);
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** Resident memory of a process in MiB (Linux /proc), or undefined elsewhere. */
export function rssMiB(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/* ------------------------------------------------------------ CPU accounting */

let clockTicks: number | undefined;

function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** [ppid, cpu ticks (user + system)] of one process from /proc, or undefined. */
function procStat(pid: number): [number, number] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [Number(fields[1]), Number(fields[11]) + Number(fields[12])];
  } catch {
    return undefined;
  }
}

/**
 * CPU time (user + system, ms) used so far by a process and, with
 * `withChildren`, by its direct children (PostgreSQL's backends under the
 * postmaster). Linux only; undefined elsewhere. CPU time, unlike wall time,
 * hardly changes when other work shares the machine.
 */
export function cpuMs(pid: number, withChildren = false): number | undefined {
  const own = procStat(pid);
  if (!own) return undefined;
  let ticks = own[1];
  if (withChildren) {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const stat = procStat(Number(name));
      if (stat && stat[0] === pid) ticks += stat[1];
    }
  }
  return (ticks * 1000) / ticksPerSecond();
}
