import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded database belongs to one process. That process writes its pid
 * to `<dataDir>/tributary.pid`; another `tributary start` on the same data
 * directory refuses to run, and the CLI finds the owner's admin socket
 * through the pid (`<dataDir>/run/tributary-<pid>.sock`).
 */
export const PID_FILE = 'tributary.pid';

export function socketPath(dataDir: string, pid = process.pid): string {
  return join(dataDir, 'run', `tributary-${pid}.sock`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of the live process that owns dataDir, if any. */
export function ownerPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, PID_FILE), 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function acquireDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const owner = ownerPid(dataDir);
  if (owner) throw new Error(`Another Tributary process (pid ${owner}) is using ${dataDir}. Stop it first, or use DATABASE_URL to share a PostgreSQL server.`);
  writeFileSync(join(dataDir, PID_FILE), String(process.pid), { mode: 0o600 });
  return () => rmSync(join(dataDir, PID_FILE), { force: true });
}
