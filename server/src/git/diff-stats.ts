/**
 * A diff's file list with GitLab's flags and line counts, without its patch text: what a
 * merge request version stores. `diff-tree --raw --numstat` gives every file and its
 * counts, one `cat-file --batch-check` the blob sizes that bound each patch (diff-size.ts);
 * git prints patches only for the rare files that may be too large, to measure them. A file
 * near the collapse limit is recorded below it and collapsed by the read that prints its
 * text (file-diffs.ts, collapsesOnRead), so the API always answers GitLab's flags.
 */
import { git } from './command.js';
import { EMPTY_TREE_SHA1 } from './diff.js';
import { parseDiffTree } from './diff-format.js';
import { blobsToSize, patchBounds, recordedPatchBytes, statPieces, type StatPiece } from './diff-size.js';
import { GitOutputTooLargeError } from './errors.js';
import { applyDiffLimits, diffFileKey, MERGE_REQUEST_DIFF_LIMITS, patchPieces, type DiffLimits, type DiffPiece, type DiffResult } from './file-diffs.js';

/** diff-tree without patches writes about 150 bytes a file; this is millions of files. */
const MAX_STATS_OUTPUT_BYTES = 256 * 1024 * 1024;
/** Patch output allowed when measuring the unsettled files together; beyond it each is measured alone. */
const MAX_MEASURE_OUTPUT_BYTES = 64 * 1024 * 1024;
/** Measuring one file stops here: a patch this long is over any limit already. */
const measureCap = (limits: DiffLimits) => Math.min(MAX_MEASURE_OUTPUT_BYTES, 2 * limits.maxPatchBytes + 64 * 1024);

const DIFF_TREE_FLAGS = ['-r', '-M', '--raw', '--numstat', '-z', '--no-abbrev', '--full-index', '--no-ext-diff', '--no-textconv', '--no-color'] as const;

const diffTree = (repoPath: string) => git(repoPath).sub('diff-tree').flag(...DIFF_TREE_FLAGS);

/** Sizes of blobs by id, in one `cat-file --batch-check` call; missing objects are left out. */
export async function blobSizes(repoPath: string, ids: readonly string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (ids.length === 0) return sizes;
  const { stdout } = await git(repoPath)
    .sub('cat-file')
    .flag('--batch-check=%(objectname) %(objectsize)')
    .input(ids.map((id) => `${id}\n`).join(''))
    .run();
  for (const line of stdout.toString('latin1').split('\n')) {
    const match = /^([0-9a-f]{40,64}) (\d+)$/.exec(line);
    if (match) sizes.set(match[1]!, Number(match[2]));
  }
  return sizes;
}

/** Hunk text bytes of the given files' patches, by diffFileKey; a missing key was not measured. */
async function measure(repoPath: string, from: string, to: string, paths: readonly string[] | null, maxOutput: number): Promise<Map<string, number>> {
  const command = diffTree(repoPath).flag('-p', '--src-prefix=a/', '--dst-prefix=b/').maxOutput(maxOutput).revisions(from, to);
  if (paths) command.paths(...paths);
  const { stdout } = await command.run();
  const measured = new Map<string, number>();
  for (const piece of patchPieces(parseDiffTree(stdout))) measured.set(diffFileKey(piece.base), piece.bytes);
  return measured;
}

/**
 * Patch sizes of the files that may be too large: their paths in one call; when that is too much output,
 * each file alone (a file cut off at the cap is over the maximum). Names that are not valid
 * UTF-8 cannot be passed back to git, so when one is unsettled the whole diff is printed.
 */
async function measureUnsettled(repoPath: string, from: string, to: string, unsettled: readonly StatPiece[], limits: DiffLimits): Promise<Map<string, number>> {
  const pathsOf = (piece: StatPiece) => [...new Set([piece.base.old_path, piece.base.new_path])];
  const unpassable = unsettled.some((piece) => pathsOf(piece).some((path) => path.includes('\uFFFD')));
  try {
    return await measure(repoPath, from, to, unpassable ? null : [...new Set(unsettled.flatMap(pathsOf))], limits.maxOutputBytes ?? MAX_MEASURE_OUTPUT_BYTES);
  } catch (error) {
    if (!(error instanceof GitOutputTooLargeError)) throw error;
    if (unpassable) return new Map(); // every unsettled file counts as its upper bound
  }
  const measured = new Map<string, number>();
  for (const piece of unsettled) {
    try {
      for (const [key, bytes] of await measure(repoPath, from, to, pathsOf(piece), measureCap(limits))) measured.set(key, bytes);
    } catch (error) {
      if (!(error instanceof GitOutputTooLargeError)) throw error;
      measured.set(diffFileKey(piece.base), Number.POSITIVE_INFINITY);
    }
  }
  return measured;
}

/**
 * The diff from tree-ish `from` (null: the empty tree) to `to` as GitLab's diff objects with
 * empty `diff` text: paths, modes, flags and line counts, under `limits`.
 */
export async function diffTreeStats(repoPath: string, from: string | null, to: string, limits: DiffLimits = MERGE_REQUEST_DIFF_LIMITS): Promise<DiffResult> {
  const before = from ?? EMPTY_TREE_SHA1;
  const { stdout } = await diffTree(repoPath).maxOutput(MAX_STATS_OUTPUT_BYTES).revisions(before, to).run();
  // Files past the file limit are left out anyway: no sizes for them.
  const pieces = statPieces(parseDiffTree(stdout)).slice(0, limits.maxFiles + 1);
  const sizes = await blobSizes(repoPath, blobsToSize(pieces));
  const settled = pieces.map((piece) => recordedPatchBytes(patchBounds(piece, (id) => sizes.get(id)), limits));
  const unsettled = pieces.filter((_, i) => settled[i] === null);
  const measured = unsettled.length > 0 ? await measureUnsettled(repoPath, before, to, unsettled, limits) : new Map<string, number>();
  const sized = pieces.map(
    (piece, i): DiffPiece => ({
      base: piece.base,
      text: null,
      // A file git did not print under its key (a rename paired differently) counts as its upper bound.
      bytes: settled[i] ?? measured.get(diffFileKey(piece.base)) ?? patchBounds(piece, (id) => sizes.get(id)).max,
      binary: piece.binary,
      added: piece.added,
      removed: piece.removed,
    }),
  );
  return applyDiffLimits(sized, limits);
}
