import { afterEach } from 'vitest';

const CLEANUPS = Symbol.for('tributary.afterEachTestOfEveryFile');

/**
 * Cleanups that test-support modules register once, run after every test of every file.
 *
 * The unit project runs its files without isolation: a worker keeps its modules from one file to
 * the next, so a module's own top-level `afterEach(…)` would be registered only for the first
 * file that imported it. This module is a setup file of the unit projects (run before each
 * file, in its context), so the `afterEach` below belongs to every file; component.tsx adds
 * Testing Library's cleanup here when it loads.
 */
// On globalThis: Vitest evaluates a setup file anew for each file, while component.tsx stays
// loaded; both must reach the same set.
const registry = globalThis as { [CLEANUPS]?: Set<() => void | Promise<void>> };
const cleanups = (registry[CLEANUPS] ??= new Set());

/** Runs `cleanup` after each test of every file from now on (once per worker is enough). */
export function afterEachTestOfEveryFile(cleanup: () => void | Promise<void>): void {
  cleanups.add(cleanup);
}

afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
});
