/**
 * Reading trees and blobs. Paths resolve against git trees, never the file system, and git
 * never follows symlinks when it walks a tree, so a stored symlink cannot lead a read out
 * of the repository; `..`, absolute and empty-segment paths are refused outright.
 */
import { assertObjectId, git } from './command.js';
import { classifyGitError, type GitErrorCode } from './error-codes.js';
import { GitCommandError } from './errors.js';
import { parseCatFileBatch, parseLsTree, type BatchObject, type TreeEntry } from './tree-format.js';
import { assertTreePath } from './tree-paths.js';

export type { TreeEntry, TreeEntryType } from './tree-format.js';

export interface BlobAtPath {
  content: Buffer;
  blobId: string;
  /** `100644`, `100755` or `120000` (a symlink: the content is its target). */
  mode: string;
  size: number;
}

/** Failures that mean "no such tree or path" for a tree read. */
const MISSING: ReadonlySet<GitErrorCode> = new Set<GitErrorCode>(['unknown-revision', 'invalid-object-name', 'bad-object', 'not-a-tree']);

/** Accepts `dir/` as the API does; the root is `''`. */
function normalizeDirectory(path: string | undefined): string {
  const trimmed = (path ?? '').replace(/\/$/, '');
  return trimmed === '' ? '' : assertTreePath(trimmed);
}

/**
 * The entries of the directory `path` at `rev` (one git call per directory), or null when the
 * revision or directory does not exist. `recursive` lists the whole subtree, trees included.
 */
export async function readTree(repoPath: string, rev: string, path?: string, options: { recursive?: boolean } = {}): Promise<TreeEntry[] | null> {
  const directory = normalizeDirectory(path);
  const command = git(repoPath).sub('ls-tree').flag('-z', '-l');
  if (options.recursive) command.flag('-r', '-t');
  if (directory) command.revisionPath(rev, directory);
  else command.revisions(rev);
  const result = await command.exec();
  if (result.exitCode !== 0) {
    const code = classifyGitError(result.stderr);
    if (MISSING.has(code)) return null;
    throw new GitCommandError('ls-tree', result.exitCode, result.stderr, code);
  }
  return parseLsTree(result.stdout, directory);
}

/** The entries at exactly these paths (files, directories or submodules), in one git call. */
export async function readEntries(repoPath: string, rev: string, paths: readonly string[]): Promise<Map<string, TreeEntry>> {
  const found = new Map<string, TreeEntry>();
  if (paths.length === 0) return found;
  for (const path of paths) assertTreePath(path);
  const result = await git(repoPath).sub('ls-tree').flag('-z', '-l', '--full-tree').revisions(rev).paths(...paths).exec();
  if (result.exitCode !== 0) {
    const code = classifyGitError(result.stderr);
    if (MISSING.has(code)) return found;
    throw new GitCommandError('ls-tree', result.exitCode, result.stderr, code);
  }
  const wanted = new Set(paths);
  for (const entry of parseLsTree(result.stdout)) if (wanted.has(entry.path)) found.set(entry.path, entry);
  return found;
}

export async function readEntry(repoPath: string, rev: string, path: string): Promise<TreeEntry | null> {
  return (await readEntries(repoPath, rev, [path])).get(path) ?? null;
}

/** Objects by id in one `cat-file --batch` call; null for each id that does not exist. */
export async function readObjects(repoPath: string, ids: readonly string[], options: { maxBytes?: number } = {}): Promise<Array<BatchObject | null>> {
  if (ids.length === 0) return [];
  for (const id of ids) assertObjectId(id);
  const command = git(repoPath).sub('cat-file').flag('--batch').input(ids.map((id) => `${id}\n`).join(''));
  if (options.maxBytes !== undefined) command.maxOutput(options.maxBytes);
  return parseCatFileBatch((await command.run()).stdout);
}

/** One blob's content by id, or null. */
export async function readBlob(repoPath: string, blobId: string, options: { maxBytes?: number } = {}): Promise<Buffer | null> {
  const [object] = await readObjects(repoPath, [blobId], options);
  return object && object.type === 'blob' ? object.content : null;
}

/** The file at `path` in `rev`: content, blob id, mode and size; null when there is no file there. */
export async function readBlobAt(repoPath: string, rev: string, path: string, options: { maxBytes?: number } = {}): Promise<BlobAtPath | null> {
  return (await readBlobsAt(repoPath, rev, [path], options)).get(path) ?? null;
}

/** Many files at one revision in two git calls (one ls-tree, one cat-file --batch). */
export async function readBlobsAt(repoPath: string, rev: string, paths: readonly string[], options: { maxBytes?: number } = {}): Promise<Map<string, BlobAtPath>> {
  const entries = [...(await readEntries(repoPath, rev, paths)).values()].filter((entry) => entry.type === 'blob');
  const objects = await readObjects(
    repoPath,
    entries.map((entry) => entry.id),
    options,
  );
  const blobs = new Map<string, BlobAtPath>();
  entries.forEach((entry, i) => {
    const object = objects[i];
    if (object) blobs.set(entry.path, { content: object.content, blobId: entry.id, mode: entry.mode, size: object.size });
  });
  return blobs;
}

/**
 * The root trees of commits. Merges, cherry-picks and rebases compare and commit trees, and
 * read many at once: one `cat-file --batch-check` for any number of revisions, fed over stdin
 * so that no value reaches git as an argument.
 */
/** The tree of each revision, in the order given; throws when one names no commit or tree. */
export async function treesOf(repoPath: string, revisions: readonly string[]): Promise<string[]> {
  if (revisions.length === 0) return [];
  const { stdout } = await git(repoPath)
    .sub('cat-file')
    .flag('--batch-check=%(objectname)')
    .input(revisions.map((revision) => `${revision}^{tree}\n`).join(''))
    .run();
  const lines = stdout.toString('utf8').split('\n').slice(0, revisions.length);
  // cat-file answers `<input> missing` (or `ambiguous`) for what it cannot find, on stdout.
  const unknown = lines.findIndex((line) => !/^[0-9a-f]{40}$/.test(line));
  if (unknown !== -1) throw new GitCommandError('cat-file', 0, `fatal: bad object ${revisions[unknown]}`, 'bad-object');
  return lines;
}

/** The tree of one revision. */
export async function treeOf(repoPath: string, revision: string): Promise<string> {
  const [tree] = await treesOf(repoPath, [revision]);
  return tree!;
}
