/**
 * Checks a diff position against the merge request itself: its SHAs must be one of the
 * request's versions (merge_request_diffs), its file one of that version's files, and a text
 * position's line one the diff shows, or an unchanged line GitLab would unfold. Fills in the
 * line codes. Refusals are 400s with GitLab's `Note {…}` wording.
 */
import { diffTreesForPaths, readBlob } from '../../git/index.js';
import type { Queryable } from '../../platform/db/database.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { MergeRequest } from '../merge-requests/merge-request.js';
import { countLines, findDiffLine, isUnfoldableLine, parseDiffLines } from './diff-lines.js';
import { noteErrors } from './note-rules.js';
import { lineCode, lineRangeInOrder, positionFilePath, type LinePoint, type LineType, type NotePosition } from './position.js';

/** GitLab's answer when a text position names no line of the diff. */
const invalidLineCode = () => noteErrors({ line_code: ["can't be blank", 'must be a valid line code'] });
const notAVersion = () => noteErrors({ position: ['does not match any version of this merge request'] });
const notInDiff = () => noteErrors({ position: ['is not a file of this version of the diff'] });

interface VersionFile {
  old_path: string;
  new_path: string;
  new_blob_id: string;
  deleted_file: boolean;
}

export interface ValidPosition {
  position: NotePosition;
  /** the line code of a text position (GitLab stores it on the note) */
  lineCode: string | null;
}

export function createPositionValidator(deps: { db: Queryable; storage: Pick<RepositoryStorage, 'pathFor'> }) {
  async function findVersion(mergeRequestId: number, position: NotePosition) {
    // A version without a merge base (unrelated histories) diffs from its start: GitLab's diff_refs base then is the start.
    const { rows } = await deps.db.query<{ id: number; base: string; head: string }>(
      `SELECT id, coalesce(base_commit_sha, start_commit_sha) AS base, head_commit_sha AS head FROM merge_request_diffs
        WHERE merge_request_id = $1 AND head_commit_sha = $2 AND start_commit_sha = $3 AND coalesce(base_commit_sha, start_commit_sha) = $4
        ORDER BY id DESC LIMIT 1`,
      [mergeRequestId, position.head_sha, position.start_sha, position.base_sha],
    );
    return rows[0];
  }

  async function findFile(versionId: number, position: NotePosition): Promise<VersionFile | undefined> {
    // Both paths match for most files; tools that send one path for a renamed file match by it.
    const { rows } = await deps.db.query<VersionFile>(
      `SELECT old_path, new_path, new_blob_id, deleted_file FROM merge_request_diff_files
        WHERE merge_request_diff_id = $1 AND (new_path = $2 OR old_path = $3)
        ORDER BY (new_path = $2 AND old_path = $3) DESC, relative_order LIMIT 1`,
      [versionId, position.new_path, position.old_path],
    );
    return rows[0];
  }

  return {
    async validate(mergeRequest: MergeRequest, requested: NotePosition): Promise<ValidPosition> {
      const version = await findVersion(mergeRequest.id, requested);
      if (!version) throw notAVersion();
      const file = await findFile(version.id, requested);
      if (!file) throw requested.position_type === 'text' ? invalidLineCode() : notInDiff();
      const position: NotePosition = { ...requested, old_path: file.old_path, new_path: file.new_path };
      if (position.position_type !== 'text') return { position, lineCode: null };

      const repo = deps.storage.pathFor(mergeRequest.target_project_id);
      const { diffs } = await diffTreesForPaths(repo, version.base, version.head, [...new Set([file.old_path, file.new_path])]);
      const fileDiff = diffs.find((candidate) => candidate.new_path === file.new_path && candidate.old_path === file.old_path);
      // No lines to stand on: a binary or too large file, or one only moved or renamed (the
      // page refuses these too: 'Commenting on files that are only moved or renamed is not supported').
      if (!fileDiff || fileDiff.binary || fileDiff.too_large) throw invalidLineCode();
      const diff = parseDiffLines(fileDiff.diff);
      if (diff.lines.length === 0) throw invalidLineCode();
      let newFileLines: number | null = null;
      const fileLines = async () => {
        if (newFileLines === null) newFileLines = file.deleted_file ? 0 : countLines((await readBlob(repo, file.new_blob_id))?.toString('utf8') ?? '');
        return newFileLines;
      };
      const path = positionFilePath(position);

      /** The line a point names: in the diff, or an unchanged line outside it. */
      const resolve = async (point: { oldLine: number | null; newLine: number | null }): Promise<{ code: string; type: LineType } | null> => {
        const line = findDiffLine(diff, point);
        if (line) return { code: lineCode(path, line.oldPosition, line.newPosition), type: line.type };
        if (point.oldLine !== null && point.newLine !== null && isUnfoldableLine(diff, point, await fileLines())) return { code: lineCode(path, point.oldLine, point.newLine), type: null };
        return null;
      };

      const main = await resolve({ oldLine: position.old_line ?? null, newLine: position.new_line ?? null });
      if (!main) throw invalidLineCode();
      if (position.line_range) {
        const point = async (requestedPoint: LinePoint): Promise<LinePoint> => {
          const found = await resolve({ oldLine: requestedPoint.old_line, newLine: requestedPoint.new_line });
          if (!found) throw invalidLineCode();
          return { ...requestedPoint, line_code: found.code, type: found.type };
        };
        position.line_range = { start: await point(position.line_range.start), end: await point(position.line_range.end) };
        if (!lineRangeInOrder(position.line_range)) throw noteErrors({ line_range: ['must start before it ends'] });
      }
      return { position, lineCode: main.code };
    },
  };
}

export type PositionValidator = ReturnType<typeof createPositionValidator>;
