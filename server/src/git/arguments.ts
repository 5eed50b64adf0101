/**
 * The checks every dynamic git argument passes, and the types that keep trusted arguments
 * literal. Pure; used by the builder (command.ts) and by callers that feed git through stdin.
 */
import { GitArgumentError } from './errors.js';

/** A string literal type; `string` itself becomes `never`, so untrusted values do not compile. */
export type Literal<T extends string> = string extends T ? never : T;

/**
 * A flag computed once at module load from constants (e.g. a long `--format=` built from a
 * field list). Never wrap a value that came from a request.
 */
export type TrustedFlag = string & { readonly __trustedFlag: true };
export function constantFlag(flag: string): TrustedFlag {
  if (!flag.startsWith('-')) throw new Error(`not a flag: ${flag}`);
  return flag as TrustedFlag;
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Checks a revision or option value that may come from a user. Throws GitArgumentError. */
export function assertDynamicValue(value: string, what = 'Argument'): string {
  if (typeof value !== 'string' || value.length === 0) throw new GitArgumentError(`${what} is empty`, String(value));
  if (value.startsWith('-')) throw new GitArgumentError(`${what} may not begin with "-"`, value);
  if (value.includes('\0')) throw new GitArgumentError(`${what} may not contain NUL`, value);
  if (value.includes('\n') || value.includes('\r')) throw new GitArgumentError(`${what} may not contain a line break`, value);
  return value;
}

/** Paths follow `--`, where git never reads options, so only NUL (which argv cannot carry) is refused. */
export function assertPathArgument(path: string): string {
  if (typeof path !== 'string' || path.length === 0) throw new GitArgumentError('Path is empty', String(path));
  if (path.includes('\0')) throw new GitArgumentError('Path may not contain NUL', path);
  return path;
}

export function assertObjectId(id: string): string {
  if (!OBJECT_ID.test(id)) throw new GitArgumentError('Not a full object id', id);
  return id;
}
