/**
 * Diff positions of diff notes (GitLab's Gitlab::Diff::Position), the parts the server, which
 * parses and checks them, and the web app, which builds them from the Changes tab, share: the
 * types, the line code format and the rules about a position's file and line range. Pure.
 *
 * A text line follows GitLab's rule: an added line has only new_line, a removed line only
 * old_line, an unchanged line both. `line_range` marks a multi-line comment.
 */

export const POSITION_TYPES = ['text', 'image', 'file'] as const;
export type PositionType = (typeof POSITION_TYPES)[number];

/** 'new' for a line the change added, 'old' for a removed one, null for an unchanged one. */
export type LineType = 'new' | 'old' | null;

export interface LinePoint {
  line_code: string | null;
  type: LineType;
  old_line: number | null;
  new_line: number | null;
}

export interface LineRange {
  start: LinePoint;
  end: LinePoint;
}

/** The version of the merge request a position is on, by its three SHAs. */
export interface DiffRefs {
  base_sha: string;
  start_sha: string;
  head_sha: string;
}

/**
 * GitLab's Gitlab::Git.diff_line_code: `<sha1(path)>_<old position>_<new position>`. Takes the
 * path's SHA-1 already hashed: the server hashes with node:crypto, the browser synchronously
 * while rendering (Web Crypto's digest is asynchronous), and a file's rows share one hash.
 */
export function lineCodeFromHash(pathSha1: string, oldPosition: number, newPosition: number): string {
  return `${pathSha1}_${oldPosition}_${newPosition}`;
}

/** Gitlab::Diff::Position#file_path: the new path, or the old one when the file was deleted. */
export function positionFilePath(position: { old_path: string; new_path: string }): string {
  return position.new_path || position.old_path;
}

/**
 * A line range runs forwards: its start is not below its end. Lines on the same side compare
 * by their number on that side (new if both have one, else old); a range from a removed line
 * to an added one is in diff order already, whatever the numbers.
 */
export function lineRangeInOrder(range: LineRange): boolean {
  const { start, end } = range;
  if (start.new_line !== null && end.new_line !== null) return start.new_line <= end.new_line;
  if (start.old_line !== null && end.old_line !== null) return start.old_line <= end.old_line;
  return true;
}
