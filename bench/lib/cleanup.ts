import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Undo work for one benchmark: stop child processes, stop the PostgreSQL
 * cluster, remove temp directories. Tasks run in reverse order of
 * registration (last started, first stopped) and a failing task never stops
 * the others.
 *
 * Each task may also have a synchronous form, run from the process `exit`
 * handler when the bench is interrupted or crashes before `run()`.
 */
export interface Cleanup {
  /** Registers an undo step. Returns a function that runs it now and forgets it. */
  defer(name: string, run: () => Promise<void> | void, sync?: () => void): () => Promise<void>;
  /** A new temp directory (short name: Tributary's admin socket path must stay under ~100 bytes), removed on cleanup. */
  tempDir(prefix: string): string;
  /** Runs every pending task, newest first. Safe to call twice. */
  run(): Promise<void>;
}

interface Task {
  name: string;
  run: () => Promise<void> | void;
  sync?: () => void;
}

/** Every Cleanup not yet run, for the last-resort `exit` handler. */
const live = new Set<Task[]>();

const TASK_TIMEOUT_MS = 30_000;

async function runTask(task: Task): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      Promise.resolve().then(task.run),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${TASK_TIMEOUT_MS} ms`)), TASK_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    console.warn(`cleanup: ${task.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    try {
      task.sync?.();
    } catch {
      // best effort
    }
  } finally {
    clearTimeout(timer);
  }
}

export function createCleanup(): Cleanup {
  const tasks: Task[] = [];
  live.add(tasks);
  return {
    defer(name, run, sync) {
      const task: Task = { name, run, sync };
      tasks.push(task);
      return async () => {
        const index = tasks.indexOf(task);
        if (index < 0) return;
        tasks.splice(index, 1);
        await runTask(task);
      };
    },
    tempDir(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      const remove = () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      tasks.push({ name: `remove ${dir}`, run: remove, sync: remove });
      return dir;
    },
    async run() {
      while (tasks.length) await runTask(tasks.pop()!);
      live.delete(tasks);
    },
  };
}

/** Synchronous last resort: kills children and removes temp dirs of every cleanup still pending. */
export function runPendingCleanupsSync(): void {
  for (const tasks of live) {
    while (tasks.length) {
      const task = tasks.pop()!;
      try {
        task.sync?.();
      } catch {
        // best effort
      }
    }
  }
  live.clear();
}
