/**
 * Typed failures of the git adapter. The user-facing ones extend the platform's domain
 * errors so the REST error handler maps them without knowing about git; the rest are
 * internal (a 500) and carry what an operator needs to debug them.
 */
import { ConflictError, ValidationError } from '../platform/errors.js';
import type { GitErrorCode } from './error-codes.js';

/**
 * A dynamic value would have reached git's argv in a form git could read as an option
 * (leading `-`), or it holds a byte that argv or a stdin protocol cannot carry (NUL,
 * newline). Thrown before any process starts.
 */
export class GitArgumentError extends ValidationError {
  constructor(
    readonly reason: string,
    readonly value: string,
  ) {
    super(reason);
  }
}

/** A path inside a tree that is not a plain relative path (`..`, `/x`, `a//b`, NUL, …). */
export class InvalidTreePathError extends ValidationError {
  constructor(
    reason: string,
    readonly path: string,
  ) {
    super(reason);
  }
}

/** A commit action that does not fit the tree it applies to ("A file with this name already exists"). */
export class CommitActionError extends ValidationError {
  constructor(
    message: string,
    readonly filePath: string,
  ) {
    super(message);
  }
}

/** A compare-and-swap ref update lost: the ref was not at the value the caller expected. */
export class RefConflictError extends ConflictError {
  constructor(
    readonly ref: string,
    readonly code: GitErrorCode,
    message = `Could not update ${ref}: it was changed concurrently`,
  ) {
    super(message);
  }
}

/** git ran and exited non-zero. `code` classifies stderr (see error-codes.ts). */
export class GitCommandError extends Error {
  constructor(
    readonly subcommand: string,
    readonly exitCode: number,
    readonly stderr: string,
    readonly code: GitErrorCode,
  ) {
    super(`git ${subcommand} failed (exit ${exitCode}, ${code}): ${stderr.trim().split('\n')[0] ?? ''}`);
  }
}

/** git ran longer than its deadline and was killed. */
export class GitTimeoutError extends Error {
  constructor(
    readonly subcommand: string,
    readonly timeoutMs: number,
  ) {
    super(`git ${subcommand} timed out after ${timeoutMs} ms`);
  }
}

/** git wrote more than the output cap and was killed. */
export class GitOutputTooLargeError extends Error {
  constructor(
    readonly subcommand: string,
    readonly maxBytes: number,
  ) {
    super(`git ${subcommand} wrote more than ${maxBytes} bytes`);
  }
}
