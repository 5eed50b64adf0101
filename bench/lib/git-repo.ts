import { childEnv, runCommand, type RunResult } from './process.js';

/**
 * git for the bench: a private HOME, no system or global config, never a
 * prompt. Credentials for Tributary go in as an `http.extraHeader` through
 * GIT_CONFIG_* variables, so they appear neither in argv nor in any file.
 */
export function gitEnv(home: string, options: { token?: string } = {}): NodeJS.ProcessEnv {
  const env = childEnv({
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
  });
  if (options.token) {
    env.GIT_CONFIG_COUNT = '1';
    env.GIT_CONFIG_KEY_0 = 'http.extraHeader';
    env.GIT_CONFIG_VALUE_0 = `Authorization: Basic ${Buffer.from(`root:${options.token}`).toString('base64')}`;
  }
  return env;
}

export function git(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string | Buffer; timeoutMs?: number }): Promise<RunResult> {
  return runCommand('git', args, { env: options.env, cwd: options.cwd, input: options.input, timeoutMs: options.timeoutMs ?? 300_000 });
}

/**
 * A `git fast-import` stream of a linear history on `refs/heads/main`:
 * `commits` commits, each rewriting one small file of `files` (so the tree
 * stays small and every commit adds a commit, a tree and a blob). Dates are
 * fixed, so the repository is the same on every run.
 */
export function fastImportStream(commits: number, files = 100): Buffer {
  const parts: string[] = [];
  const epoch = 1_700_000_000;
  for (let i = 1; i <= commits; i++) {
    const file = i % files;
    const message = `Change file ${file} (commit ${i})\n`;
    const content = `file ${file}\nlast changed by commit ${i}\n`;
    const date = `${epoch + i * 60} +0000`;
    parts.push(
      'commit refs/heads/main\n',
      `mark :${i}\n`,
      `author Bench <bench@example.com> ${date}\n`,
      `committer Bench <bench@example.com> ${date}\n`,
      `data ${Buffer.byteLength(message)}\n${message}`,
      `M 100644 inline src/file-${String(file).padStart(3, '0')}.txt\n`,
      `data ${Buffer.byteLength(content)}\n${content}\n`,
    );
  }
  parts.push('done\n');
  return Buffer.from(parts.join(''));
}

/** Creates a bare repository at `dir` holding `commits` commits on main, through git fast-import. */
export async function generateRepository(dir: string, commits: number, env: NodeJS.ProcessEnv): Promise<void> {
  await git(['init', '--quiet', '--bare', '--initial-branch=main', dir], { env });
  await git(['fast-import', '--quiet', '--done'], { env, cwd: dir, input: fastImportStream(commits) });
}

export async function commitCount(gitDir: string, env: NodeJS.ProcessEnv): Promise<number> {
  const { stdout } = await git(['--git-dir', gitDir, 'rev-list', '--count', 'refs/heads/main'], { env });
  return Number(stdout.trim());
}
