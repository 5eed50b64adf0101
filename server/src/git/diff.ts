/**
 * Diffs between commits, shaped as GitLab's diff objects. One `diff-tree` call yields raw
 * records, numstat and patch together (parsed by diff-format.ts). diff-tree is plumbing:
 * porcelain settings (diff.noprefix, diff.external, textconv) cannot change its output.
 * (A merge request version needs no patch text: diff-stats.ts.)
 */
import { join } from 'node:path';
import { git } from './command.js';
import { LOG_FORMAT, parseLogOutput, type GitCommit } from './commit-format.js';
import { parseDiffTree } from './diff-format.js';
import { GitArgumentError, GitOutputTooLargeError } from './errors.js';
import { buildFileDiffs, DEFAULT_DIFF_LIMITS, type DiffLimits, type DiffResult } from './file-diffs.js';
import { mergeBase } from './merge-base.js';
import { resolveCommits } from './refs.js';

export type { DiffLimits, DiffResult, FileDiff } from './file-diffs.js';

/** The empty tree, which git knows without storing it; the "before" side of a root commit. */
export const EMPTY_TREE_SHA1 = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
/** More patch than this is not worth reading; the files are listed as too large instead. */
const MAX_PATCH_OUTPUT_BYTES = 64 * 1024 * 1024;
export const COMPARE_MAX_COMMITS = 1000;

/**
 * Where git reads objects: a repository, plus (for a compare across a fork network) the
 * objects of another repository on this server, read in place through
 * GIT_ALTERNATE_OBJECT_DIRECTORIES: nothing is copied or written.
 */
interface ObjectSource {
  repoPath: string;
  env: Record<string, string>;
}

function objectSource(repoPath: string, alsoFrom?: string): ObjectSource {
  if (!alsoFrom || alsoFrom === repoPath) return { repoPath, env: {} };
  if (!alsoFrom.startsWith('/') || alsoFrom.includes(':')) throw new GitArgumentError('Repository path must be absolute and colon-free', alsoFrom);
  return { repoPath, env: { GIT_ALTERNATE_OBJECT_DIRECTORIES: join(alsoFrom, 'objects') } };
}

function diffTreeCommand(source: ObjectSource, from: string, to: string, patchBytes: number | null, paths: readonly string[]) {
  const command = git(source.repoPath).env(source.env).config('core.quotePath', 'false').sub('diff-tree');
  command.flag('-r', '-M', '--raw', '--numstat', '-z', '--no-abbrev', '--full-index', '--no-ext-diff', '--no-textconv', '--no-color');
  if (patchBytes !== null) command.flag('-p', '--src-prefix=a/', '--dst-prefix=b/').maxOutput(patchBytes);
  command.revisions(from, to);
  // Literal paths: a name with `*` or a leading `:` names that file, not a pattern.
  return paths.length > 0 ? command.env({ GIT_LITERAL_PATHSPECS: '1' }).paths(...paths) : command;
}

async function diffTreesIn(source: ObjectSource, from: string | null, to: string, limits: DiffLimits, paths: readonly string[] = []): Promise<DiffResult> {
  const before = from ?? EMPTY_TREE_SHA1;
  try {
    const { stdout } = await diffTreeCommand(source, before, to, limits.maxOutputBytes ?? MAX_PATCH_OUTPUT_BYTES, paths).run();
    const result = buildFileDiffs(parseDiffTree(stdout), limits);
    return { ...result, diffs: onlyAt(result.diffs, paths) };
  } catch (error) {
    if (!(error instanceof GitOutputTooLargeError)) throw error;
    // Too much patch to hold: list every file without its text.
    const { stdout } = await diffTreeCommand(source, before, to, null, paths).run();
    const { diffs } = buildFileDiffs(parseDiffTree(stdout), { ...limits, maxPatchBytes: -1 });
    return { diffs: onlyAt(diffs, paths), overflow: true };
  }
}

/** A path given to git also names what lies below it, when it is a folder: keep the files at exactly those paths. */
function onlyAt<T extends { old_path: string; new_path: string }>(diffs: T[], paths: readonly string[]): T[] {
  if (paths.length === 0) return diffs;
  const wanted = new Set(paths);
  return diffs.filter((diff) => wanted.has(diff.old_path) || wanted.has(diff.new_path));
}

/** The diff from tree-ish `from` (null: the empty tree) to `to`. */
export async function diffTrees(repoPath: string, from: string | null, to: string, limits: DiffLimits = DEFAULT_DIFF_LIMITS): Promise<DiffResult> {
  return diffTreesIn(objectSource(repoPath), from, to, limits);
}

/** A commit's own changes: against its first parent, or the empty tree for a root commit. */
export async function diffCommit(repoPath: string, commit: GitCommit, limits: DiffLimits = DEFAULT_DIFF_LIMITS): Promise<DiffResult> {
  return diffTrees(repoPath, commit.parent_ids[0] ?? null, commit.id, limits);
}

export interface Comparison extends DiffResult {
  fromSha: string;
  toSha: string;
  /** The diff's "before" side: the merge base, or `from` itself for a straight compare. */
  baseSha: string;
  /** Commits reachable from `to` and not from `from`, oldest first (the newest `maxCommits`). */
  commits: GitCommit[];
  /** More commits exist than were returned. */
  commitsOverflow: boolean;
  sameRef: boolean;
}

export interface CompareOptions {
  straight?: boolean;
  limits?: DiffLimits;
  maxCommits?: number;
  /**
   * The repository `from` is resolved in, when it is another project of the fork network
   * (GitLab's `from_project_id`). Its objects are read in place; `to` stays in `repoPath`.
   */
  fromRepoPath?: string;
  /**
   * Only the files at these paths (a renamed file needs its old and new path for git to pair
   * them): one file's patch, the same git wrote for the whole compare.
   */
  paths?: readonly string[];
}

/** The newest `limit` commits of `from..to` (both SHAs), newest first, and whether there are more. */
async function commitsBetween(source: ObjectSource, from: string, to: string, limit: number): Promise<{ commits: GitCommit[]; hasMore: boolean }> {
  const { stdout } = await git(source.repoPath)
    .env(source.env)
    .sub('log')
    .flag('-z', LOG_FORMAT, '--no-color')
    .option('--max-count', limit + 1)
    .revisions(`${from}..${to}`)
    .run();
  const commits = parseLogOutput(stdout);
  return { commits: commits.slice(0, limit), hasMore: commits.length > limit };
}

/**
 * GitLab's compare: `straight: false` diffs from the merge base (`from...to`), `straight: true`
 * diffs `from` and `to` directly. Null when either revision names no commit.
 */
export async function diff(repoPath: string, from: string, to: string, options: CompareOptions = {}): Promise<Comparison | null> {
  const source = objectSource(repoPath, options.fromRepoPath);
  const [fromSha, toSha] = options.fromRepoPath
    ? (await Promise.all([resolveCommits(options.fromRepoPath, [from]), resolveCommits(repoPath, [to])])).flat()
    : await resolveCommits(repoPath, [from, to]);
  if (!fromSha || !toSha) return null;
  const baseSha = options.straight ? fromSha : ((await mergeBase(source.repoPath, fromSha, toSha, source.env)) ?? fromSha);
  const [page, result] = await Promise.all([
    commitsBetween(source, fromSha, toSha, options.maxCommits ?? COMPARE_MAX_COMMITS),
    diffTreesIn(source, baseSha, toSha, options.limits ?? DEFAULT_DIFF_LIMITS, options.paths),
  ]);
  return { ...result, fromSha, toSha, baseSha, commits: [...page.commits].reverse(), commitsOverflow: page.hasMore, sameRef: fromSha === toSha };
}
