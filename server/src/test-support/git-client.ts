import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gitCli, type GitCli, type GitResult } from './server.js';

/**
 * The stock `git` client against a test server, with credentials from the
 * harness's askpass script (never written to any git config), in temp dirs.
 */

export interface Credentials {
  username: string;
  /** a password or a personal access token */
  password: string;
}

export const ANONYMOUS: Credentials = { username: '', password: '' };

/** Runs `fn` with a git client for these credentials and removes its temp dirs afterwards. */
export async function withGit<T>(url: string, credentials: Credentials, fn: (git: GitCli) => Promise<T>): Promise<T> {
  const cli = gitCli({ url, username: credentials.username || 'anonymous', password: credentials.password });
  try {
    return await fn(cli);
  } finally {
    await cli.close();
  }
}

/** A local repository `dir` (inside the client's work dir) with one commit per entry; returns the SHAs. */
export async function makeRepo(cli: GitCli, dir: string, commits: { message: string; files: Record<string, string> }[], branch = 'main'): Promise<string[]> {
  if (!existsSync(join(cli.dir, dir))) await cli.git(['init', '-q', '-b', branch, dir]);
  const shas: string[] = [];
  for (const commit of commits) shas.push(await commitFiles(cli, dir, commit.message, commit.files));
  return shas;
}

export async function commitFiles(cli: GitCli, dir: string, message: string, files: Record<string, string>): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(cli.dir, dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  await cli.git(['add', '-A'], { cwd: dir });
  await cli.git(['commit', '-q', '--allow-empty', '-m', message], { cwd: dir });
  return (await cli.git(['rev-parse', 'HEAD'], { cwd: dir })).stdout.trim();
}

/** `git push <url> <refspecs…>` from `dir`; never throws, so refusals can be asserted. */
export function push(cli: GitCli, dir: string, projectPath: string, refspecs: string[], extraArgs: string[] = []): Promise<GitResult> {
  return cli.git(['push', ...extraArgs, cli.repoUrl(projectPath), ...refspecs], { cwd: dir, allowFailure: true });
}

/** `git clone`; never throws. */
export function clone(cli: GitCli, projectPath: string, dir: string, extraArgs: string[] = []): Promise<GitResult> {
  return cli.git(['clone', '-q', ...extraArgs, cli.repoUrl(projectPath), dir], { allowFailure: true });
}

/** refs/heads/* → sha as the server advertises them (`git ls-remote`). */
export async function remoteBranches(cli: GitCli, projectPath: string): Promise<Map<string, string>> {
  const { stdout } = await cli.git(['ls-remote', '--heads', cli.repoUrl(projectPath)]);
  return new Map(
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [sha, ref] = line.split('\t');
        return [ref!.replace(/^refs\/heads\//, ''), sha!] as [string, string];
      }),
  );
}

/** Pushes one commit to `branch` of a project as `credentials` (a throwaway local repo). */
export async function pushCommit(url: string, credentials: Credentials, projectPath: string, branch: string, files: Record<string, string> = { 'README.md': '# hello\n' }) {
  return withGit(url, credentials, async (cli) => {
    const [sha] = await makeRepo(cli, 'src', [{ message: `Commit on ${branch}`, files }], branch);
    const result = await push(cli, 'src', projectPath, [`HEAD:refs/heads/${branch}`]);
    return { sha: sha!, result };
  });
}
