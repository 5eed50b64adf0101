import type { DiffFile } from '../../lib/diff-file';
import { parseDiffHunks, type ParsedDiff } from '../../lib/diff-hunks';
import type { RawFile } from './api';
import type { DiffRefs } from './DiffContext';
import type { FileTexts } from './file-states';

/** What expanding a file the server sent collapsed (without its patch) needs to fetch. */
export interface CollapsedFileSources {
  /** A blob at a SHA (null when that side does not exist). */
  side(sha: string | null, path: string): Promise<RawFile | null>;
  /** git's patch of one file of a merge request version, from the server (…/versions/:id/diffs?path=). */
  versionPatch(mergeRequestIid: number, versionId: number, path: string): Promise<string | null>;
  /** git's patch of one file between two commits, from the server (…/repository/compare?paths[]=). */
  comparePatch(from: string, to: string, oldPath: string, newPath: string): Promise<string | null>;
}

export interface LoadedCollapsedFile {
  texts: FileTexts;
  computed: ParsedDiff;
  binary: boolean;
}

/**
 * Loads a collapsed file: git's patch from the server (the same diff every other file shows) and
 * both blobs for expanding its context. A merge request version asks for its own file's patch; any
 * other comparison (two versions against each other, a branch compare) asks the compare for that
 * file between the two commits. With no old commit (a root commit) every line is new.
 */
export async function loadCollapsedFile(file: DiffFile, refs: DiffRefs, sources: CollapsedFileSources): Promise<LoadedCollapsedFile> {
  const path = file.deletedFile ? file.oldPath : file.newPath;
  const patch =
    refs.mergeRequestIid !== undefined && refs.versionId != null
      ? sources.versionPatch(refs.mergeRequestIid, refs.versionId, path)
      : refs.baseSha && refs.headSha
        ? sources.comparePatch(refs.baseSha, refs.headSha, file.oldPath, file.newPath)
        : null;
  const [before, after, fromServer] = await Promise.all([
    file.newFile ? null : sources.side(refs.baseSha, file.oldPath),
    file.deletedFile ? null : sources.side(refs.headSha, file.newPath),
    patch,
  ]);
  const texts = { old: before?.lines ?? null, new: after?.lines ?? null };
  const binary = (before !== null && before.text === null) || (after !== null && after.text === null);
  if (binary) return { texts, computed: parseDiffHunks(''), binary };
  const diff = patch ? (fromServer ?? '') : addedFileHunk(after?.lines ?? []);
  return { texts, computed: parseDiffHunks(diff), binary };
}

/** A file with no old side, as git prints it: one hunk adding every line. */
function addedFileHunk(lines: readonly string[]): string {
  if (lines.length === 0) return '';
  return `@@ -0,0 +1${lines.length === 1 ? '' : `,${lines.length}`} @@\n${lines.map((line) => `+${line}\n`).join('')}`;
}
