/**
 * Ref tips read straight from the repository's files, without starting git: the paths that
 * read two or three tips before a compare-and-swap (a merge, the trial merge) paid a whole
 * `git for-each-ref` process for a few bytes (bench/README.md, "Merging through the API").
 *
 * git's files backend keeps a ref either as a loose file `<repo>/<refname>` holding its object
 * id (written to a lock file and renamed, so a read sees the old or the new value, never a
 * mix), or, when it has no loose file, as a `<object id> <refname>` line of `<repo>/packed-refs`
 * (also replaced by rename); a loose file wins over a packed line. Anything else (a symbolic
 * ref, an unreadable file, a repository with another ref storage) is left to `git for-each-ref`.
 *
 * A value read here is as current as one read by git: either may be stale a moment later, so
 * the callers still move refs only by compare-and-swap (`updateRef` with the old value).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './command.js';
import { GitArgumentError } from './errors.js';
import { isValidFullRefName } from './ref-names.js';

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** `<sha> <refname>` lines; exact names only (for-each-ref patterns also match refs below them). Pure. */
export function parseRefTips(stdout: string, wanted: readonly string[]): Map<string, string> {
  const names = new Set(wanted);
  const tips = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space <= 0) continue;
    const name = line.slice(space + 1);
    if (names.has(name)) tips.set(name, line.slice(0, space));
  }
  return tips;
}

/** The lines of a packed-refs file for `wanted`: `#` is its header, `^` a peeled tag's commit. Pure. */
export function parsePackedRefs(text: string, wanted: ReadonlySet<string>): Map<string, string> {
  const tips = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    const name = line.slice(space + 1);
    if (space > 0 && wanted.has(name) && OBJECT_ID.test(line.slice(0, space))) tips.set(name, line.slice(0, space));
  }
  return tips;
}

/** Through git: the fallback, and what the files must agree with (ref-files.test.ts). */
export async function readRefTipsWithGit(repoPath: string, refs: readonly string[]): Promise<Map<string, string>> {
  const { stdout } = await git(repoPath).sub('for-each-ref').flag('--format=%(objectname) %(refname)').revisions(...refs).run();
  return parseRefTips(stdout.toString('utf8'), refs);
}

const NOT_THERE = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/** A loose ref: its object id, 'absent' when there is no such file, 'unsure' for anything git must read. */
async function looseRef(repoPath: string, ref: string): Promise<string | 'absent' | 'unsure'> {
  try {
    const value = (await readFile(join(repoPath, ref), 'utf8')).trim();
    return OBJECT_ID.test(value) ? value : 'unsure';
  } catch (error) {
    return NOT_THERE.has((error as NodeJS.ErrnoException).code ?? '') ? 'absent' : 'unsure';
  }
}

/**
 * The object ids of these full ref names; refs that do not exist are left out. Names are
 * checked as git's check-ref-format would (`refs/…`, no `..`, no component starting with a
 * dot), so a name can never reach a file outside the repository's refs.
 */
export async function readRefTips(repoPath: string, refs: readonly string[]): Promise<Map<string, string>> {
  for (const ref of refs) if (!isValidFullRefName(ref)) throw new GitArgumentError('Invalid reference name', ref);
  if (refs.length === 0) return new Map();
  // git 2.45+ can keep refs in a reftable instead: not files this reader understands.
  if (existsSync(join(repoPath, 'reftable'))) return readRefTipsWithGit(repoPath, refs);
  const loose = await Promise.all(refs.map((ref) => looseRef(repoPath, ref)));
  if (loose.includes('unsure')) return readRefTipsWithGit(repoPath, refs);
  const tips = new Map<string, string>();
  const packedWanted = new Set<string>();
  refs.forEach((ref, i) => (loose[i] === 'absent' ? packedWanted.add(ref) : tips.set(ref, loose[i]!)));
  if (packedWanted.size === 0) return tips;
  let packed: string;
  try {
    packed = await readFile(join(repoPath, 'packed-refs'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return tips;
    return readRefTipsWithGit(repoPath, refs);
  }
  for (const [ref, sha] of parsePackedRefs(packed, packedWanted)) tips.set(ref, sha);
  return tips;
}
