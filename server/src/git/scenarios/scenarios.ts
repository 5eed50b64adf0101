/**
 * Test fixtures: real repositories built by the named shell scripts beside this file, in a
 * fresh temporary directory, with git isolated from the user's configuration.
 * Used by tests only; each script's header says what it builds.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type ScenarioName = 'linear-history' | 'renamed-binary' | 'weird-file-names' | 'malicious-branch-names' | 'conflicting-branches' | 'patch-sizes';

export interface Scenario {
  /** The temporary directory holding everything. */
  root: string;
  /** The bare repository the scenario published. */
  repo: string;
  cleanup(): Promise<void>;
}

export async function makeTempDir(prefix = 'tributary-git-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function buildScenario(name: ScenarioName, ...args: string[]): Promise<Scenario> {
  const root = await makeTempDir(`tributary-${name}-`);
  const script = fileURLToPath(new URL(`./${name}.sh`, import.meta.url));
  await run('bash', [script, root, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' },
  });
  return { root, repo: join(root, 'repo.git'), cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** Runs the stock git client against a scenario (for assertions, never for the code under test). */
export async function rawGit(repo: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', [`--git-dir=${repo}`, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' },
    encoding: 'utf8',
  });
  return stdout;
}
