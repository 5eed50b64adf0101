/**
 * Every ref change is a compare-and-swap: `update-ref <ref> <new> <old>` names the value it
 * expects, and the zero id means "must not exist yet". A lost race is a RefConflictError for
 * the caller, never a silently lost commit. Several refs change atomically through one
 * `update-ref --stdin` transaction (all or none).
 */
import { assertObjectId, git } from './command.js';
import { REF_CONFLICT_CODES } from './error-codes.js';
import { GitArgumentError, GitCommandError, RefConflictError } from './errors.js';
import { isValidFullRefName } from './ref-names.js';

export const ZERO_SHA = '0000000000000000000000000000000000000000';

export interface RefUpdate {
  /** Full name: `refs/heads/main`. */
  ref: string;
  /** The new value, or null to delete the ref. */
  newSha: string | null;
  /** The value the ref must have now, or null when it must not exist. */
  oldSha: string | null;
}

function assertFullRef(ref: string): string {
  if (!isValidFullRefName(ref)) throw new GitArgumentError('Invalid reference name', ref);
  return ref;
}

/** Runs an update-ref command, turning a lost compare-and-swap into RefConflictError. */
async function runRefCommand(ref: string, command: ReturnType<typeof git>): Promise<void> {
  try {
    await command.run();
  } catch (error) {
    if (error instanceof GitCommandError && REF_CONFLICT_CODES.has(error.code)) throw new RefConflictError(ref, error.code);
    throw error;
  }
}

/** Moves `ref` from `oldSha` (null: must not exist) to `newSha`. */
export async function updateRef(repoPath: string, ref: string, newSha: string, oldSha: string | null): Promise<void> {
  assertFullRef(ref);
  assertObjectId(newSha);
  const expected = oldSha === null ? ZERO_SHA : assertObjectId(oldSha);
  await runRefCommand(ref, git(repoPath).sub('update-ref').revisions(ref, newSha, expected));
}

/** Creates `ref` at `sha`; fails with RefConflictError if it already exists. */
export async function createRef(repoPath: string, ref: string, sha: string): Promise<void> {
  await updateRef(repoPath, ref, sha, null);
}

/** Deletes `ref` only if it still points at `expectedOldSha`. */
export async function deleteRef(repoPath: string, ref: string, expectedOldSha: string): Promise<void> {
  assertFullRef(ref);
  assertObjectId(expectedOldSha);
  await runRefCommand(ref, git(repoPath).sub('update-ref').flag('-d').revisions(ref, expectedOldSha));
}

/** The `update-ref -z --stdin` transaction text; pure, exported for tests. */
export function refTransaction(updates: readonly RefUpdate[]): string {
  const lines = updates.map(({ ref, newSha, oldSha }) => {
    assertFullRef(ref);
    if (newSha === null && oldSha === null) throw new GitArgumentError('A deletion must name the expected old value', ref);
    const old = oldSha === null ? ZERO_SHA : assertObjectId(oldSha);
    return newSha === null ? `delete ${ref}\0${old}\0` : `update ${ref}\0${assertObjectId(newSha)}\0${old}\0`;
  });
  return `start\0${lines.join('')}prepare\0commit\0`;
}

/** Applies all updates or none: each ref is locked and checked against its old value first. */
export async function updateRefs(repoPath: string, updates: readonly RefUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  const refs = updates.map((update) => update.ref).join(', ');
  await runRefCommand(refs, git(repoPath).sub('update-ref').flag('-z', '--stdin').input(refTransaction(updates)));
}
