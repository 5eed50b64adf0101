/**
 * Reading refs and resolving revisions. User revisions always pass through the builder's
 * `.revisions()` (after `--end-of-options`); a value beginning with `-` never reaches git.
 */
import { assertDynamicValue, git } from './command.js';
import { GitCommandError } from './errors.js';
import { parseRefList, REF_FORMAT, type GitRef } from './ref-format.js';

export type { GitRef } from './ref-format.js';

/** Sort keys for ref lists (GitLab: name, updated_asc, updated_desc; tags also by version). */
export type RefSort = 'refname' | '-refname' | 'committerdate' | '-committerdate' | 'version:refname' | '-version:refname' | 'creatordate' | '-creatordate';

const SORT_FLAGS: Record<RefSort, `--sort=${RefSort}`> = {
  refname: '--sort=refname',
  '-refname': '--sort=-refname',
  committerdate: '--sort=committerdate',
  '-committerdate': '--sort=-committerdate',
  'version:refname': '--sort=version:refname',
  '-version:refname': '--sort=-version:refname',
  creatordate: '--sort=creatordate',
  '-creatordate': '--sort=-creatordate',
};

const OBJECT_ID_LINE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Every ref under `prefix` (e.g. `refs/heads/`) with its commit, in one git call. */
export async function listRefs(repoPath: string, prefix: string, options: { sort?: RefSort } = {}): Promise<GitRef[]> {
  const { stdout } = await git(repoPath)
    .sub('for-each-ref')
    .flag(REF_FORMAT)
    .flag(SORT_FLAGS[options.sort ?? 'refname'])
    .revisions(prefix)
    .run();
  return parseRefList(stdout);
}

/**
 * Only the full names under `prefix`, sorted: cheap even with thousands of refs, so a page of
 * a branch list can be cut first and its details read with readRefs().
 */
export async function listRefNames(repoPath: string, prefix: string, options: { sort?: RefSort } = {}): Promise<string[]> {
  const { stdout } = await git(repoPath)
    .sub('for-each-ref')
    .flag('--format=%(refname)')
    .flag(SORT_FLAGS[options.sort ?? 'refname'])
    .revisions(prefix)
    .run();
  return stdout.toString('utf8').split('\n').filter(Boolean);
}

/** These refs (full names) with their commits, in one git call; missing ones are left out. */
export async function readRefs(repoPath: string, fullRefs: readonly string[]): Promise<GitRef[]> {
  if (fullRefs.length === 0) return [];
  const wanted = new Set(fullRefs);
  // for-each-ref patterns also match refs below them (`refs/heads/a` → `refs/heads/a/b`).
  const refs = await git(repoPath).sub('for-each-ref').flag(REF_FORMAT).revisions(...wanted).run();
  const byName = new Map(parseRefList(refs.stdout).map((ref) => [ref.ref, ref]));
  return fullRefs.flatMap((name) => byName.get(name) ?? []);
}

/** One ref by its full name (`refs/heads/x`), or null. */
export async function readRef(repoPath: string, fullRef: string): Promise<GitRef | null> {
  return (await readRefs(repoPath, [fullRef]))[0] ?? null;
}

/** Full names of the refs under `prefix` whose tips are reachable from `commitSha` (GitLab's `merged`). */
export async function mergedRefs(repoPath: string, prefix: string, commitSha: string): Promise<Set<string>> {
  const { stdout } = await git(repoPath).sub('for-each-ref').flag('--format=%(refname)').option('--merged', commitSha).revisions(prefix).run();
  return new Set(stdout.toString('utf8').split('\n').filter(Boolean));
}

/** Where a symbolic ref points (`HEAD` → `refs/heads/main`), or null when it is not symbolic. */
export async function symbolicRefTarget(repoPath: string, name: string): Promise<string | null> {
  const result = await git(repoPath).sub('symbolic-ref').flag('-q').revisions(name).exec();
  if (result.exitCode === 1) return null;
  if (result.exitCode !== 0) throw new GitCommandError('symbolic-ref', result.exitCode, result.stderr, 'unknown');
  return result.stdout.toString('utf8').trim();
}

/**
 * The commit a revision names (branch, tag, full or short SHA, `main~2`), or null when it
 * names none. A revision beginning with `-` throws GitArgumentError.
 */
export async function resolveCommit(repoPath: string, rev: string): Promise<string | null> {
  const result = await git(repoPath).sub('rev-parse').flag('--verify', '--quiet').revisions(`${rev}^{commit}`).exec();
  if (result.exitCode !== 0) return null;
  return result.stdout.toString('utf8').trim();
}

/** Resolves many revisions in one git call; null for each that names no commit. */
export async function resolveCommits(repoPath: string, revs: readonly string[]): Promise<Array<string | null>> {
  if (revs.length === 0) return [];
  for (const rev of revs) assertDynamicValue(rev, 'Revision');
  const { stdout } = await git(repoPath)
    .sub('cat-file')
    .flag('--batch-check=%(objectname)')
    .input(revs.map((rev) => `${rev}^{commit}\n`).join(''))
    .run();
  const lines = stdout.toString('utf8').split('\n');
  return revs.map((_, i) => (OBJECT_ID_LINE.test(lines[i] ?? '') ? lines[i]! : null));
}

/** Whether `ancestor` is reachable from `descendant` (a commit is its own ancestor). */
export async function isAncestor(repoPath: string, ancestor: string, descendant: string): Promise<boolean> {
  const result = await git(repoPath).sub('merge-base').flag('--is-ancestor').revisions(ancestor, descendant).exec();
  if (result.exitCode === 0) return true;
  if (result.exitCode === 1) return false;
  throw new GitCommandError('merge-base', result.exitCode, result.stderr, 'unknown');
}

