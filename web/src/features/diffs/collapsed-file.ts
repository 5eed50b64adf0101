import type { DiffFile } from '../../lib/diff-file';
import { parseDiffHunks, type ParsedDiff } from '../../lib/diff-hunks';
import { unifiedLineDiff } from '../../lib/line-diff';
import type { RawFile } from './api';
import type { DiffRefs } from './DiffContext';
import type { FileTexts } from './file-states';

/** What expanding a file the server sent collapsed (without its patch) needs to fetch. */
export interface CollapsedFileSources {
  /** A blob at a SHA (null when that side does not exist). */
  side(sha: string | null, path: string): Promise<RawFile | null>;
  /** git's patch of one file of a merge request version, from the server (…/versions/:id/diffs?path=). */
  versionPatch(mergeRequestIid: number, versionId: number, path: string): Promise<string | null>;
}

export interface LoadedCollapsedFile {
  texts: FileTexts;
  computed: ParsedDiff;
  binary: boolean;
}

/**
 * Loads a collapsed file: git's patch from the server for a merge request version (the same
 * diff every other file shows), and both blobs for expanding its context. Only a comparison
 * the server has no per-file patch for (two versions against each other, a branch compare)
 * diffs the blobs here.
 */
export async function loadCollapsedFile(file: DiffFile, refs: DiffRefs, sources: CollapsedFileSources): Promise<LoadedCollapsedFile> {
  const path = file.deletedFile ? file.oldPath : file.newPath;
  const fromServer = refs.mergeRequestIid !== undefined && refs.versionId != null ? sources.versionPatch(refs.mergeRequestIid, refs.versionId, path) : null;
  const [before, after, patch] = await Promise.all([
    file.newFile ? null : sources.side(refs.baseSha, file.oldPath),
    file.deletedFile ? null : sources.side(refs.headSha, file.newPath),
    fromServer,
  ]);
  const texts = { old: before?.lines ?? null, new: after?.lines ?? null };
  const binary = (before !== null && before.text === null) || (after !== null && after.text === null);
  if (binary) return { texts, computed: parseDiffHunks(''), binary };
  const diff = fromServer ? (patch ?? '') : unifiedLineDiff(before?.text ?? '', after?.text ?? '');
  return { texts, computed: parseDiffHunks(diff), binary };
}
