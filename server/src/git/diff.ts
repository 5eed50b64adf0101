/**
 * Diffs between commits, shaped as GitLab's diff objects. One `diff-tree` call yields raw
 * records, numstat and patch together (parsed by diff-format.ts). diff-tree is plumbing:
 * porcelain settings (diff.noprefix, diff.external, textconv) cannot change its output.
 */
import { git } from './command.js';
import { listCommits, type GitCommit } from './commits.js';
import { parseDiffTree } from './diff-format.js';
import { GitOutputTooLargeError } from './errors.js';
import { buildFileDiffs, DEFAULT_DIFF_LIMITS, type DiffLimits, type DiffResult } from './file-diffs.js';
import { mergeBase, resolveCommits } from './refs.js';

export type { DiffLimits, DiffResult, FileDiff } from './file-diffs.js';

/** The empty tree, which git knows without storing it; the "before" side of a root commit. */
export const EMPTY_TREE_SHA1 = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
/** More patch than this is not worth reading; the files are listed as too large instead. */
const MAX_PATCH_OUTPUT_BYTES = 64 * 1024 * 1024;
export const COMPARE_MAX_COMMITS = 1000;

function diffTreeCommand(repoPath: string, from: string, to: string, patchBytes: number | null) {
  const command = git(repoPath).config('core.quotePath', 'false').sub('diff-tree');
  command.flag('-r', '-M', '--raw', '--numstat', '-z', '--no-abbrev', '--full-index', '--no-ext-diff', '--no-textconv', '--no-color');
  if (patchBytes !== null) command.flag('-p', '--src-prefix=a/', '--dst-prefix=b/').maxOutput(patchBytes);
  return command.revisions(from, to);
}

/** The diff from tree-ish `from` (null: the empty tree) to `to`. */
export async function diffTrees(repoPath: string, from: string | null, to: string, limits: DiffLimits = DEFAULT_DIFF_LIMITS): Promise<DiffResult> {
  const before = from ?? EMPTY_TREE_SHA1;
  try {
    const { stdout } = await diffTreeCommand(repoPath, before, to, limits.maxOutputBytes ?? MAX_PATCH_OUTPUT_BYTES).run();
    return buildFileDiffs(parseDiffTree(stdout), limits);
  } catch (error) {
    if (!(error instanceof GitOutputTooLargeError)) throw error;
    // Too much patch to hold: list every file without its text.
    const { stdout } = await diffTreeCommand(repoPath, before, to, null).run();
    const { diffs } = buildFileDiffs(parseDiffTree(stdout), { ...limits, maxPatchBytes: -1 });
    return { diffs, overflow: true };
  }
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

/**
 * GitLab's compare: `straight: false` diffs from the merge base (`from...to`), `straight: true`
 * diffs `from` and `to` directly. Null when either revision names no commit.
 */
export async function diff(repoPath: string, from: string, to: string, options: { straight?: boolean; limits?: DiffLimits; maxCommits?: number } = {}): Promise<Comparison | null> {
  const [fromSha, toSha] = await resolveCommits(repoPath, [from, to]);
  if (!fromSha || !toSha) return null;
  const baseSha = options.straight ? fromSha : ((await mergeBase(repoPath, fromSha, toSha)) ?? fromSha);
  const [page, result] = await Promise.all([
    listCommits(repoPath, { ref: `${fromSha}..${toSha}`, limit: options.maxCommits ?? COMPARE_MAX_COMMITS }),
    diffTrees(repoPath, baseSha, toSha, options.limits),
  ]);
  return { ...result, fromSha, toSha, baseSha, commits: [...(page?.commits ?? [])].reverse(), commitsOverflow: page?.hasMore ?? false, sameRef: fromSha === toSha };
}
