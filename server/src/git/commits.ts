/**
 * Reading commits: one, a page of history, a count, and the last commit touching a path.
 * Each is one git call; pages fetch limit+1 to know whether another page exists.
 */
import { git, type GitCommand } from './command.js';
import { LOG_FORMAT, parseLogOutput, type GitCommit } from './commit-format.js';
import { classifyGitError, type GitErrorCode } from './error-codes.js';
import { GitCommandError } from './errors.js';
import { assertTreePath } from './tree-paths.js';

export type { GitCommit } from './commit-format.js';

export interface HistoryFilter {
  /** A revision or range (`main`, `a..b`); defaults to HEAD. Ignored when `all` is set. */
  ref?: string;
  /** Commits reachable from these are left out (`^sha`), e.g. a target branch's. */
  exclude?: string[];
  /** Every ref (`--all`) instead of `ref`. */
  all?: boolean;
  path?: string;
  since?: Date;
  until?: Date;
  firstParent?: boolean;
  /** Only commits whose author name or email contains this text (literal, case-insensitive). */
  author?: string;
}

export interface ListCommitsOptions extends HistoryFilter {
  skip?: number;
  limit: number;
  order?: 'default' | 'topo';
}

export interface CommitPage {
  commits: GitCommit[];
  hasMore: boolean;
}

const FULL_OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Failures that mean "the revision names nothing" rather than "git broke". */
const NOT_FOUND_CODES: ReadonlySet<GitErrorCode> = new Set<GitErrorCode>(['unknown-revision', 'invalid-object-name', 'bad-object']);

/** git has no fractional seconds in approxidate; whole-second ISO 8601 in UTC parses exactly. */
const gitDate = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

function applyFilter(command: GitCommand, filter: HistoryFilter): GitCommand {
  if (filter.firstParent) command.flag('--first-parent');
  if (filter.since) command.option('--since', gitDate(filter.since));
  if (filter.until) command.option('--until', gitDate(filter.until));
  if (filter.author !== undefined) command.flag('--fixed-strings', '--regexp-ignore-case').option('--author', filter.author);
  if (filter.all) command.flag('--all');
  else command.revisions(filter.ref ?? 'HEAD', ...(filter.exclude ?? []).map((rev) => `^${rev}`));
  if (filter.path !== undefined) command.paths(assertTreePath(filter.path));
  return command;
}

/** Runs a history command; null when the revision names nothing (unknown ref, empty repository). */
async function runHistory(command: GitCommand): Promise<Buffer | null> {
  const result = await command.exec();
  if (result.exitCode === 0) return result.stdout;
  const code = classifyGitError(result.stderr);
  if (NOT_FOUND_CODES.has(code)) return null;
  throw new GitCommandError(command.name, result.exitCode, result.stderr, code);
}

/** A page of history, newest first; null when `ref` names no commit. */
export async function listCommits(repoPath: string, options: ListCommitsOptions): Promise<CommitPage | null> {
  const command = git(repoPath).sub('log').flag('-z', LOG_FORMAT, '--no-color').option('--max-count', options.limit + 1);
  if (options.skip) command.option('--skip', options.skip);
  if (options.order === 'topo') command.flag('--topo-order');
  const stdout = await runHistory(applyFilter(command, options));
  if (stdout === null) return null;
  const commits = parseLogOutput(stdout);
  return { commits: commits.slice(0, options.limit), hasMore: commits.length > options.limit };
}

/** How many commits match the filter (`rev-list --count`); null when `ref` names no commit. */
export async function countCommits(repoPath: string, filter: HistoryFilter & { maxCount?: number }): Promise<number | null> {
  const command = git(repoPath).sub('rev-list').flag('--count');
  if (filter.maxCount !== undefined) command.option('--max-count', filter.maxCount);
  const stdout = await runHistory(applyFilter(command, filter));
  return stdout === null ? null : Number.parseInt(stdout.toString('utf8'), 10);
}

/** One commit by SHA or revision, or null. */
export async function getCommit(repoPath: string, rev: string): Promise<GitCommit | null> {
  const page = await listCommits(repoPath, { ref: `${rev}^{commit}`, limit: 1 });
  return page?.commits[0] ?? null;
}

/**
 * Several commits by full object id in one `git log --no-walk` (a list of pipelines or jobs shows
 * each one's commit); a missing object makes git refuse the whole list, so then each is read alone
 * and the missing ones are null.
 */
export async function getCommitsByIds(repoPath: string, ids: readonly string[]): Promise<Map<string, GitCommit | null>> {
  const found = new Map<string, GitCommit | null>();
  // what is not a full object id (a ref a caller stored) is read alone, as getCommit reads it
  for (const rev of new Set(ids.filter((id) => !FULL_OBJECT_ID.test(id)))) found.set(rev, await getCommit(repoPath, rev));
  const unique = [...new Set(ids.filter((id) => FULL_OBJECT_ID.test(id)))];
  if (unique.length === 0) return found;
  const stdout = await runHistory(git(repoPath).sub('log').flag('-z', LOG_FORMAT, '--no-color', '--no-walk=unsorted').objectIds(...unique));
  if (stdout !== null) {
    const commits = new Map(parseLogOutput(stdout).map((commit) => [commit.id, commit]));
    if (unique.every((id) => commits.has(id))) {
      for (const id of unique) found.set(id, commits.get(id)!);
      return found;
    }
  }
  for (const id of unique) found.set(id, await getCommit(repoPath, id));
  return found;
}

/** The latest commit reachable from `rev` that changed `path`, or null. */
export async function lastCommitForPath(repoPath: string, rev: string, path: string): Promise<GitCommit | null> {
  const page = await listCommits(repoPath, { ref: rev, path, limit: 1 });
  return page?.commits[0] ?? null;
}

/** At most this many `git log` processes at once for one tree page. */
const LAST_COMMIT_CONCURRENCY = 4;

/**
 * The last commit for each path (a tree page's "last commit" column). One `git log -1` per
 * path, as Gitaly does, run a few at a time; callers page the tree (GitLab shows 25 entries).
 */
export async function lastCommitsForPaths(repoPath: string, rev: string, paths: readonly string[]): Promise<Map<string, GitCommit | null>> {
  for (const path of paths) assertTreePath(path);
  const found = new Map<string, GitCommit | null>();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      found.set(path, await lastCommitForPath(repoPath, rev, path));
    }
  };
  await Promise.all(Array.from({ length: Math.min(LAST_COMMIT_CONCURRENCY, paths.length) }, worker));
  return found;
}
