/**
 * Process execution for git: argv arrays only (no shell), a fixed environment, closed or
 * explicit stdin, a deadline and an output cap. Only command.ts calls this; everything else
 * goes through the builder so no argv reaches here unchecked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitOutputTooLargeError, GitTimeoutError } from './errors.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
/** stderr is for diagnostics; keep its head, drop the rest. */
const MAX_STDERR_BYTES = 64 * 1024;

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number;
}

export interface GitProcessSpec {
  argv: readonly string[];
  /** Extra variables on top of the fixed environment (GIT_INDEX_FILE, GIT_AUTHOR_*, …). */
  env: Readonly<Record<string, string>>;
  stdin?: string | Buffer;
  /** 0 disables the deadline (long streams that the caller supervises). */
  timeoutMs: number;
  maxOutputBytes: number;
  /** Only for messages: `log`, `update-ref`, … */
  subcommand: string;
}

let emptyHome: string | undefined;

/**
 * HOME points at an empty directory created once per process, so neither ~/.gitconfig nor
 * $XDG_CONFIG_HOME/git/config of the server's user can change git's behaviour.
 */
function emptyHomeDir(): string {
  emptyHome ??= mkdtempSync(join(tmpdir(), 'tributary-git-home-'));
  return emptyHome;
}

/** Variables callers may not override: they are what makes git's behaviour reproducible. */
const FIXED_KEYS = new Set(['PATH', 'HOME', 'XDG_CONFIG_HOME', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL', 'LC_ALL', 'GIT_TERMINAL_PROMPT']);

export function gitEnvironment(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const home = emptyHomeDir();
  const fixed: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    LC_ALL: 'C',
    // Paths from users are always literal: no `:(glob)`, `:(exclude)` or other pathspec magic.
    GIT_LITERAL_PATHSPECS: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_ATTR_NOSYSTEM: '1',
  };
  for (const [key, value] of Object.entries(extra)) {
    if (FIXED_KEYS.has(key)) throw new Error(`git environment variable ${key} is fixed`);
    fixed[key] = value;
  }
  return fixed;
}

function startProcess(spec: GitProcessSpec, stdin: 'pipe' | 'ignore'): ChildProcess {
  // detached: git gets its own process group, so a timeout kills its helpers
  // (pack-objects, index-pack, …) too, not just the git process itself.
  return spawn('git', [...spec.argv], {
    env: gitEnvironment(spec.env),
    // A neutral working directory: git never discovers a repository or work tree from it.
    cwd: emptyHomeDir(),
    stdio: [stdin, 'pipe', 'pipe'],
    shell: false,
    detached: true,
    windowsHide: true,
  });
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

export function executeGit(spec: GitProcessSpec): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = startProcess(spec, spec.stdin === undefined ? 'ignore' : 'pipe');
    const chunks: Buffer[] = [];
    let outBytes = 0;
    let errText = '';
    let failure: Error | undefined;
    const fail = (error: Error) => {
      failure ??= error;
      killGroup(child);
    };
    const timer = spec.timeoutMs > 0 ? setTimeout(() => fail(new GitTimeoutError(spec.subcommand, spec.timeoutMs)), spec.timeoutMs) : undefined;

    child.stdout!.on('data', (chunk: Buffer) => {
      if (failure) return;
      outBytes += chunk.length;
      if (outBytes > spec.maxOutputBytes) return fail(new GitOutputTooLargeError(spec.subcommand, spec.maxOutputBytes));
      chunks.push(chunk);
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      if (errText.length < MAX_STDERR_BYTES) errText += text.slice(0, MAX_STDERR_BYTES - errText.length);
    });
    child.on('error', (error) => fail(error));
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (failure) return reject(failure);
      resolve({ stdout: Buffer.concat(chunks, outBytes), stderr: errText, exitCode: code ?? (signal ? 128 + 9 : 1) });
    });
    if (spec.stdin !== undefined && child.stdin) {
      // git may exit before reading all of its input (e.g. a bad revision); that EPIPE
      // is not the failure to report, the exit status and stderr are.
      child.stdin.on('error', () => {});
      child.stdin.end(spec.stdin);
    }
  });
}

/**
 * For callers that stream (smart HTTP): stdin, stdout and stderr are pipes the caller owns.
 * The deadline still applies and kills the whole process group.
 */
export function spawnGit(spec: GitProcessSpec): ChildProcess {
  const child = startProcess(spec, 'pipe');
  if (spec.timeoutMs > 0) {
    const timer = setTimeout(() => {
      child.emit('timeout');
      killGroup(child);
    }, spec.timeoutMs);
    child.on('close', () => clearTimeout(timer));
  }
  return child;
}
