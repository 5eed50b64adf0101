/**
 * Pure rules for repository files: content encodings, how raw content is
 * served (never as HTML), and which paths the files API accepts.
 */
import { InvalidTreePathError } from '../../git/errors.js';
import { writablePathProblem } from '../../git/tree-paths.js';
import { ValidationError } from '../../platform/errors.js';

export type ContentEncoding = 'text' | 'base64';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of `content` sent with `encoding` (GitLab: text is UTF-8; base64 must be strict). */
export function decodeContent(content: string, encoding: ContentEncoding, field = 'content'): Buffer {
  if (encoding === 'text') return Buffer.from(content, 'utf8');
  const compact = content.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw new ValidationError(`400 (Bad request) "${field}" is not valid base64`);
  return Buffer.from(compact, 'base64');
}

/** git's own binary heuristic: a NUL byte within the first 8000 bytes. */
const BINARY_PROBE_BYTES = 8000;

export function looksBinary(content: Buffer): boolean {
  return content.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

/**
 * The content type of a raw file: text/plain for UTF-8 text, otherwise
 * application/octet-stream. Never text/html or any type a browser renders
 * with scripts: raw files are user content on our origin.
 */
export function rawContentType(content: Buffer): string {
  if (looksBinary(content)) return 'application/octet-stream';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
    return 'text/plain; charset=utf-8';
  } catch {
    return 'application/octet-stream';
  }
}

/**
 * Every file path the files API takes, for reads and writes alike: relative,
 * no `.` or `..` segments, no empty segments, no NUL, and no `.git` in any
 * spelling git guards against. A 400 before git runs.
 */
export function assertFilePath(path: string): string {
  const problem = writablePathProblem(path);
  if (problem) throw new InvalidTreePathError(problem, path);
  return path;
}

export const fileName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
