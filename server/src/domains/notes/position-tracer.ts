/**
 * Follows a diff note's position from one version of a merge request to the next (GitLab's
 * Gitlab::Diff::PositionTracer with its LineStrategy, FileStrategy and ImageStrategy, and
 * Gitlab::Diff::LineMapper). Pure: the caller hands in the three diffs it needs.
 *
 * A position sits on the diff A→B (A the old merge base, B the old head). The new version
 * diffs C→D. Where a line went is read from A→C (what happened to the base: the target moved,
 * a rebase) and B→D (what the push did to the head); the result must then be a line of C→D of
 * the same kind. When it is not (the commented line was changed, removed, or the file went
 * away), the thread is *outdated*: its position stays on the old version, and the change
 * position names the line in the diff that changed it (B→D or A→C), for the page to show.
 */
import { lineCode, positionFilePath, type DiffRefs, type LinePoint, type LineType, type NotePosition } from './position.js';
import type { ParsedDiff } from './diff-lines.js';

/** One file of a diff between two commits. */
export interface TracedFile {
  oldPath: string;
  newPath: string;
  /** null: git printed no patch (binary, too large): no line can be followed through it */
  diff: ParsedDiff | null;
}

/** The changed files between two commits, and those commits as a position names them. */
export interface DiffSet {
  refs: DiffRefs;
  files: TracedFile[];
}

export interface TraceDiffs {
  /** old base → new base */
  ac: DiffSet;
  /** old head → new head */
  bd: DiffSet;
  /** new base → new head: the new version's diff */
  cd: DiffSet;
}

export type TraceResult =
  | { outdated: false; position: NotePosition; lineCode: string | null }
  /** changePosition: where the change shows (null when no diff shows it, as GitLab) */
  | { outdated: true; changePosition: NotePosition | null };

type Side = 'old' | 'new';
type SetName = keyof TraceDiffs;

const withOldPath = (set: DiffSet, path: string) => set.files.find((file) => file.oldPath === path);
const withNewPath = (set: DiffSet, path: string) => set.files.find((file) => file.newPath === path);

/**
 * Where line `line` of one side of a file lands on the other side (LineMapper). No diff
 * file: the file did not change, the line stays. A line the diff removed (or, from the new
 * side, added) has no counterpart: null. Lines outside every hunk move by what the hunks
 * above them added and removed.
 */
export function mapLine(file: TracedFile | undefined, line: number, from: Side): number | null {
  if (!file) return line;
  if (!file.diff) return null;
  const fromLine = (point: { oldLine: number | null; newLine: number | null }) => (from === 'old' ? point.oldLine : point.newLine);
  const toLine = (point: { oldLine: number | null; newLine: number | null }) => (from === 'old' ? point.newLine : point.oldLine);
  let offset = 0;
  for (const hunk of file.diff.hunks) {
    const [fromStart, fromCount, toStart, toCount] = from === 'old' ? [hunk.oldStart, hunk.oldCount, hunk.newStart, hunk.newCount] : [hunk.newStart, hunk.newCount, hunk.oldStart, hunk.oldCount];
    if (fromCount > 0 && line >= fromStart && line < fromStart + fromCount) {
      const found = file.diff.lines.find((candidate) => fromLine(candidate) === line);
      return found ? toLine(found) : null;
    }
    // A count of 0 means the hunk sits right after line `start` on that side.
    const fromEnd = fromCount === 0 ? fromStart : fromStart + fromCount - 1;
    const toEnd = toCount === 0 ? toStart : toStart + toCount - 1;
    if (fromEnd < line) offset = toEnd - fromEnd;
    else break;
  }
  return line + offset;
}

/** Is this exact line (both numbers) one the diff shows? (Position#diff_line, valid_position?) */
function showsLine(file: TracedFile | undefined, oldLine: number | null, newLine: number | null): boolean {
  return !!file?.diff?.lines.some((line) => line.oldLine === oldLine && line.newLine === newLine);
}

interface Point {
  oldLine: number | null;
  newLine: number | null;
}

/** An active line's place in the new version: the C→D file (undefined: unchanged there) and its paths. */
interface Place {
  file: TracedFile | undefined;
  oldPath: string;
  newPath: string;
}

type LineTrace = { outdated: false; point: Point; place: Place } | { outdated: true; change: { set: SetName; file: TracedFile | undefined; oldPath: string; newPath: string; point: Point } | null };

/** LineStrategy#trace for one line of a text position (paths from the position). */
function traceLine(position: NotePosition, point: Point, diffs: TraceDiffs): LineTrace {
  const active = (file: TracedFile | undefined, oldPath: string, newPath: string, kept: Point): LineTrace => ({
    outdated: false,
    point: kept,
    place: { file, oldPath: file?.oldPath ?? oldPath, newPath: file?.newPath ?? newPath },
  });
  const change = (set: SetName, file: TracedFile | undefined, path: string, changed: Point): LineTrace => ({
    outdated: true,
    change: { set, file, oldPath: file?.oldPath ?? path, newPath: file?.newPath ?? path, point: changed },
  });

  if (point.oldLine === null && point.newLine !== null) {
    // An added line: follow it through the push (B→D), then it must still be added in C→D.
    const bLine = point.newLine;
    const bd = withOldPath(diffs.bd, position.new_path);
    const dPath = bd?.newPath ?? position.new_path;
    const dLine = mapLine(bd, bLine, 'old');
    if (dLine === null) return change('bd', bd, position.new_path, { oldLine: bLine, newLine: null });
    const cd = withNewPath(diffs.cd, dPath);
    const cPath = cd?.oldPath ?? dPath;
    const cLine = mapLine(cd, dLine, 'new');
    if (cLine === null) return active(cd, cPath, dPath, { oldLine: null, newLine: dLine });
    // The line is in the base now too: unchanged. Still shown in C→D? Then it stays active.
    if (showsLine(cd, cLine, dLine)) return active(cd, cPath, dPath, { oldLine: cLine, newLine: dLine });
    return change('ac', withNewPath(diffs.ac, cPath), cPath, { oldLine: null, newLine: cLine });
  }

  if (point.oldLine !== null && point.newLine === null) {
    // A removed line: follow it through the base (A→C), then it must still be removed in C→D.
    const aLine = point.oldLine;
    const ac = withOldPath(diffs.ac, position.old_path);
    const cPath = ac?.newPath ?? position.old_path;
    const cLine = mapLine(ac, aLine, 'old');
    if (cLine === null) return change('ac', ac, position.old_path, { oldLine: aLine, newLine: null });
    const cd = withOldPath(diffs.cd, cPath);
    const dPath = cd?.newPath ?? cPath;
    const dLine = mapLine(cd, cLine, 'old');
    if (dLine === null) return active(cd, cPath, dPath, { oldLine: cLine, newLine: null });
    // The push put the line back: no longer a removal in this merge request.
    return change('bd', withNewPath(diffs.bd, dPath), dPath, { oldLine: null, newLine: dLine });
  }

  // An unchanged line: follow both sides.
  const aLine = point.oldLine!;
  const bLine = point.newLine!;
  const ac = withOldPath(diffs.ac, position.old_path);
  const cPath = ac?.newPath ?? position.old_path;
  const cLine = mapLine(ac, aLine, 'old');
  const bd = withOldPath(diffs.bd, position.new_path);
  const dPath = bd?.newPath ?? position.new_path;
  const dLine = mapLine(bd, bLine, 'old');
  const cd = withOldPath(diffs.cd, cPath);
  if (cLine !== null && dLine !== null) {
    // Unchanged still; GitLab keeps it only where the new diff shows it (else: outdated, no change to show).
    if (showsLine(cd, cLine, dLine)) return active(cd, cPath, dPath, { oldLine: cLine, newLine: dLine });
    return { outdated: true, change: null };
  }
  // Gone from the base but still in the head: now an added line, still in the merge request.
  if (dLine !== null) return active(cd, cPath, dPath, { oldLine: null, newLine: dLine });
  // Gone from the head: the push changed or removed it.
  return change('bd', bd, position.new_path, { oldLine: bLine, newLine: null });
}

const lineType = (point: Point): LineType => (point.oldLine === null ? 'new' : point.newLine === null ? 'old' : null);

/**
 * GitLab's line code of a line of `file`: the diff line's counters when the diff shows it,
 * else (an unchanged line outside the hunks) its two numbers.
 */
function codeOf(file: TracedFile | undefined, path: string, point: Point): string {
  const line = file?.diff?.lines.find((candidate) => candidate.oldLine === point.oldLine && candidate.newLine === point.newLine);
  if (line) return lineCode(path, line.oldPosition, line.newPosition);
  return lineCode(path, point.oldLine ?? 0, point.newLine ?? 0);
}

function changePosition(position: NotePosition, trace: Extract<LineTrace, { outdated: true }>, diffs: TraceDiffs): NotePosition | null {
  if (!trace.change) return null;
  const { set, oldPath, newPath, point } = trace.change;
  return { ...diffs[set].refs, position_type: 'text', old_path: oldPath, new_path: newPath, old_line: point.oldLine, new_line: point.newLine, line_range: null };
}

/**
 * FileStrategy / ImageStrategy: a file or image thread follows its file while the push does
 * not touch it; a file the push changed, renamed or removed makes the thread outdated.
 */
function traceFile(position: NotePosition, diffs: TraceDiffs): TraceResult {
  const keep = (set: SetName, file: TracedFile): NotePosition => ({ ...position, ...diffs[set].refs, old_path: file.oldPath, new_path: file.newPath });
  const bd = withOldPath(diffs.bd, position.new_path);
  if (bd) return { outdated: true, changePosition: keep('bd', bd) };
  const cd = withNewPath(diffs.cd, position.new_path);
  if (cd) return { outdated: false, position: keep('cd', cd), lineCode: null };
  const ac = withOldPath(diffs.ac, position.old_path);
  if (ac) return { outdated: true, changePosition: keep('ac', ac) };
  return { outdated: true, changePosition: null };
}

/**
 * Where a position is on the new version, or that it is outdated. A line range follows its
 * two ends too, and the thread is outdated when either end's line changed (the comment was
 * about all of them); GitLab copies the range unchanged, which leaves stale line numbers.
 */
export function tracePosition(position: NotePosition, diffs: TraceDiffs): TraceResult {
  if (position.position_type !== 'text') return traceFile(position, diffs);
  const main = traceLine(position, { oldLine: position.old_line ?? null, newLine: position.new_line ?? null }, diffs);
  if (main.outdated) return { outdated: true, changePosition: changePosition(position, main, diffs) };

  let ends: [Point, Point] | null = null;
  if (position.line_range) {
    const start = traceLine(position, { oldLine: position.line_range.start.old_line, newLine: position.line_range.start.new_line }, diffs);
    const end = traceLine(position, { oldLine: position.line_range.end.old_line, newLine: position.line_range.end.new_line }, diffs);
    if (start.outdated) return { outdated: true, changePosition: changePosition(position, start, diffs) };
    if (end.outdated) return { outdated: true, changePosition: changePosition(position, end, diffs) };
    ends = [start.point, end.point];
  }

  const { file } = main.place;
  const paths = { old_path: main.place.oldPath, new_path: main.place.newPath };
  const path = positionFilePath(paths);
  const point = (traced: Point): LinePoint => ({ line_code: codeOf(file, path, traced), type: lineType(traced), old_line: traced.oldLine, new_line: traced.newLine });
  const moved: NotePosition = {
    ...diffs.cd.refs,
    position_type: 'text',
    ...paths,
    old_line: main.point.oldLine,
    new_line: main.point.newLine,
    line_range: ends ? { start: point(ends[0]), end: point(ends[1]) } : null,
  };
  return { outdated: false, position: moved, lineCode: codeOf(file, path, main.point) };
}

/** Do two positions name the same version (GitLab's DiffNote#active? compares diff refs)? */
export function sameDiffRefs(a: DiffRefs, b: DiffRefs): boolean {
  return a.base_sha === b.base_sha && a.start_sha === b.start_sha && a.head_sha === b.head_sha;
}
