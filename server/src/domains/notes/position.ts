/**
 * Diff positions of diff notes (GitLab's Gitlab::Diff::Position and its formatters): parsing
 * what an API call sends, line codes, and the shape the API returns. Pure.
 *
 * A position names a version of the merge request by its three SHAs (base, start, head), a
 * file by its old and new paths, and then a line (text), a rectangle on an image (image) or
 * the whole file (file). Text lines follow GitLab's rule: an added line has only new_line, a
 * removed line only old_line, an unchanged line both. `line_range` marks a multi-line comment.
 */
import { createHash } from 'node:crypto';
import { lineCodeFromHash, POSITION_TYPES, type DiffRefs, type LinePoint, type LineRange, type LineType, type PositionType } from '@tributary/contracts';
import { ValidationError } from '../../platform/errors.js';
import { integerParam } from '../../platform/integer-param.js';

// The shared parts (the web app builds positions by the same types and rules).
export { lineRangeInOrder, positionFilePath, type DiffRefs, type LinePoint, type LineType } from '@tributary/contracts';

export interface NotePosition extends DiffRefs {
  position_type: PositionType;
  old_path: string;
  new_path: string;
  /** text */
  old_line?: number | null;
  new_line?: number | null;
  line_range?: LineRange | null;
  /** image */
  width?: number;
  height?: number;
  x?: number;
  y?: number;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** GitLab's Gitlab::Git.diff_line_code: `<sha1(path)>_<old position>_<new position>`. */
export function lineCode(path: string, oldPosition: number, newPosition: number): string {
  return lineCodeFromHash(createHash('sha1').update(path).digest('hex'), oldPosition, newPosition);
}

type Params = Record<string, unknown>;

const invalid = (key: string) => new ValidationError(`400 (Bad request) "${key}" is invalid`);

function field(params: Params, key: string): unknown {
  const value = params[key];
  return value === '' ? undefined : value;
}

function optionalInt(params: Params, key: string, label: string): number | null {
  const value = field(params, key);
  if (value === undefined || value === null) return null;
  const number = integerParam(value);
  if (Number.isNaN(number)) throw invalid(label);
  return number;
}

function requiredInt(params: Params, key: string, label: string): number {
  const value = optionalInt(params, key, label);
  if (value === null) throw ValidationError.missing(label);
  if (value < 0) throw invalid(label);
  return value;
}

function optionalText(params: Params, key: string, label: string): string | null {
  const value = field(params, key);
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(label);
  return value;
}

function lineNumber(params: Params, key: string, label: string): number | null {
  const value = optionalInt(params, key, label);
  if (value !== null && value < 1) throw invalid(label);
  return value;
}

function parsePoint(input: unknown, label: string): LinePoint {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw invalid(label);
  const params = input as Params;
  const type = optionalText(params, 'type', `${label}[type]`);
  if (type !== null && type !== 'new' && type !== 'old') throw invalid(`${label}[type]`);
  return {
    line_code: optionalText(params, 'line_code', `${label}[line_code]`),
    type: type as LineType,
    old_line: lineNumber(params, 'old_line', `${label}[old_line]`),
    new_line: lineNumber(params, 'new_line', `${label}[new_line]`),
  };
}

/**
 * The `position` parameter as sent (JSON, or multipart `position[...]` keys already nested),
 * checked for shape: SHAs, type, paths and the fields its type needs. Whether the version,
 * file and line exist is the position validator's business (it needs the database and git).
 */
export function parsePosition(input: unknown): NotePosition {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw invalid('position');
  const params = input as Params;
  const sha = (key: keyof DiffRefs) => {
    const value = optionalText(params, key, `position[${key}]`);
    if (value === null) throw ValidationError.missing(`position[${key}]`);
    if (!SHA.test(value)) throw invalid(`position[${key}]`);
    return value;
  };
  const refs: DiffRefs = { base_sha: sha('base_sha'), start_sha: sha('start_sha'), head_sha: sha('head_sha') };
  const type = optionalText(params, 'position_type', 'position[position_type]');
  if (type === null) throw ValidationError.missing('position[position_type]');
  if (!(POSITION_TYPES as readonly string[]).includes(type)) throw new ValidationError('400 (Bad request) "position[position_type]" does not have a valid value');
  // Tools often send one path for a file that was not renamed; GitLab looks the file up by either.
  const oldPath = optionalText(params, 'old_path', 'position[old_path]');
  const newPath = optionalText(params, 'new_path', 'position[new_path]');
  if (oldPath === null && newPath === null) throw ValidationError.missing('position[new_path]');
  const base = { ...refs, position_type: type as PositionType, old_path: oldPath ?? newPath!, new_path: newPath ?? oldPath! };

  if (type === 'image') {
    return {
      ...base,
      width: requiredInt(params, 'width', 'position[width]'),
      height: requiredInt(params, 'height', 'position[height]'),
      x: requiredInt(params, 'x', 'position[x]'),
      y: requiredInt(params, 'y', 'position[y]'),
    };
  }
  if (type === 'file') return base;

  const oldLine = lineNumber(params, 'old_line', 'position[old_line]');
  const newLine = lineNumber(params, 'new_line', 'position[new_line]');
  if (oldLine === null && newLine === null) throw ValidationError.missing('position[new_line]');
  const range = field(params, 'line_range');
  let lineRange: LineRange | null = null;
  if (range !== undefined && range !== null) {
    if (typeof range !== 'object' || Array.isArray(range)) throw invalid('position[line_range]');
    const { start, end } = range as Params;
    if (start === undefined || end === undefined) throw ValidationError.missing(`position[line_range][${start === undefined ? 'start' : 'end'}]`);
    lineRange = { start: parsePoint(start, 'position[line_range][start]'), end: parsePoint(end, 'position[line_range][end]') };
  }
  return { ...base, old_line: oldLine, new_line: newLine, line_range: lineRange };
}

/** The position as GitLab's API returns it (Position#to_h without ignore_whitespace_change). */
export function positionForApi(position: NotePosition): Record<string, unknown> {
  const base = {
    base_sha: position.base_sha,
    start_sha: position.start_sha,
    head_sha: position.head_sha,
    old_path: position.old_path,
    new_path: position.new_path,
    position_type: position.position_type,
  };
  if (position.position_type === 'image') return Object.assign(base, { width: position.width, height: position.height, x: position.x, y: position.y });
  if (position.position_type === 'file') return base;
  return Object.assign(base, { old_line: position.old_line ?? null, new_line: position.new_line ?? null, line_range: position.line_range ?? null });
}
