import { spawn } from 'node:child_process';

export interface RunResult {
  exitCode: number;
  /** why the process was stopped, when it was */
  stopped?: 'timeout' | 'canceled';
}

/**
 * Runs a command in its own process group (`detached`), its output to `onOutput`. A timeout or
 * the abort signal kills the whole group: SIGTERM, then SIGKILL after a grace period, so a
 * script's children (a `sleep`, a server it started) end with it.
 */
export function runInGroup(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; onOutput: (chunk: Buffer) => void; timeoutSeconds?: number; signal?: AbortSignal; graceMs?: number; stdin?: string },
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    let stopped: RunResult['stopped'];
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (why: 'timeout' | 'canceled') => {
      if (stopped || child.exitCode !== null) return;
      stopped = why;
      const signalGroup = (signal: NodeJS.Signals) => {
        try {
          if (child.pid) process.kill(-child.pid, signal);
        } catch {
          // the group is gone already
        }
      };
      signalGroup('SIGTERM');
      killTimer = setTimeout(() => signalGroup('SIGKILL'), options.graceMs ?? 5000);
      killTimer.unref();
    };
    const timer = options.timeoutSeconds ? setTimeout(() => killGroup('timeout'), options.timeoutSeconds * 1000) : undefined;
    const onAbort = () => killGroup('canceled');
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout?.on('data', options.onOutput);
    child.stderr?.on('data', options.onOutput);
    child.once('error', (error) => {
      options.onOutput(Buffer.from(`${error.message}\n`));
    });
    child.once('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      // What the script left behind in its group ends with the step.
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // nothing left
      }
      resolve({ exitCode: code ?? (signal ? 128 + (signalNumber(signal) ?? 15) : 1), ...(stopped ? { stopped } : {}) });
    });
  });
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  return { SIGTERM: 15, SIGKILL: 9, SIGINT: 2, SIGHUP: 1 }[signal as string];
}
