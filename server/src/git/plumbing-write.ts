/**
 * Commits written with plumbing and no work tree: a temporary index (GIT_INDEX_FILE in a
 * private temp directory), `read-tree`, `hash-object -w`, `update-index --index-info`,
 * `write-tree`, `commit-tree`, then a compare-and-swap `update-ref`. Nothing is ever checked
 * out, so no path from a request touches the file system.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { t } from '@tributary/contracts';
import { ValidationError } from '../platform/errors.js';
import { assertObjectId, git } from './command.js';
import { indexInfo, pathsToInspect, planCommitActions, type CommitAction, type ExistingEntry } from './commit-actions.js';
import { GitArgumentError } from './errors.js';
import { isValidFullRefName, userRefNameProblem } from './ref-names.js';
import { updateRef, ZERO_SHA } from './ref-updates.js';
import { readEntries } from './tree.js';

export interface Identity {
  name: string;
  email: string;
  /** Defaults to now. */
  date?: Date;
}

export interface CommitTreeInput {
  tree: string;
  parents: readonly string[];
  message: string;
  author: Identity;
  committer: Identity;
}

export interface CreateCommitInput {
  /** Short branch name; the commit lands on refs/heads/<branch>. */
  branch: string;
  /** The parent commit, or null for the first commit of an empty repository. */
  startSha: string | null;
  /**
   * What refs/heads/<branch> must hold now: defaults to `startSha` (commit on top of the
   * branch). Pass null to create the branch (from `startSha` of another branch), or the
   * branch's current tip with a different `startSha` to overwrite it (GitLab's `force`).
   */
  expectedOldSha?: string | null;
  actions: readonly CommitAction[];
  message: string;
  author: Identity;
  committer: Identity;
  /** Runs once the commit is written and before the branch moves; throwing leaves the branch as it was. */
  beforeRefUpdate?: (sha: string) => Promise<void>;
}

/** git strips or rejects these in identities; refusing them keeps what we store what was asked. */
function identityEnv(role: 'AUTHOR' | 'COMMITTER', identity: Identity): Record<string, string> {
  for (const value of [identity.name, identity.email]) {
    if (/[\0\n<>]/.test(value) || value.trim() === '') throw new GitArgumentError(`Invalid ${role.toLowerCase()} name or email`, value);
  }
  const seconds = Math.floor((identity.date ?? new Date()).getTime() / 1000);
  return { [`GIT_${role}_NAME`]: identity.name, [`GIT_${role}_EMAIL`]: identity.email, [`GIT_${role}_DATE`]: `@${seconds} +0000` };
}

/** `commit-tree`: a commit object for `tree` with these parents; returns its id. */
export async function commitTree(repoPath: string, input: CommitTreeInput): Promise<string> {
  const command = git(repoPath).sub('commit-tree');
  for (const parent of input.parents) command.option('-p', assertObjectId(parent));
  command.flag('-F', '-').objectIds(input.tree);
  const { stdout } = await command
    .env({ ...identityEnv('AUTHOR', input.author), ...identityEnv('COMMITTER', input.committer) })
    .input(input.message)
    .run();
  return stdout.toString('utf8').trim();
}

/** Writes new blob contents in one `hash-object --stdin-paths` call; returns their ids in order. */
async function hashContents(repoPath: string, dir: string, contents: readonly Buffer[]): Promise<string[]> {
  if (contents.length === 0) return [];
  const files = contents.map((_, i) => join(dir, `blob-${i}`));
  await Promise.all(contents.map((content, i) => writeFile(files[i]!, content)));
  const { stdout } = await git(repoPath).sub('hash-object').flag('-w', '--no-filters', '--stdin-paths').input(`${files.join('\n')}\n`).run();
  return stdout.toString('utf8').trim().split('\n');
}

/**
 * Builds the tree for `actions` on top of `startSha` in a temporary index; returns the tree id.
 * Exported for writes that commit through CommitWriter.writeTree (applied suggestions).
 */
export async function writeActionsTree(repoPath: string, startSha: string | null, actions: readonly CommitAction[]): Promise<string> {
  const existing = startSha ? await readEntries(repoPath, startSha, pathsToInspect(actions)) : new Map<string, ExistingEntry>();
  const updates = planCommitActions(actions, existing);
  const dir = await mkdtemp(join(tmpdir(), 'tributary-index-'));
  try {
    const env = { GIT_INDEX_FILE: join(dir, 'index') };
    if (startSha) await git(repoPath).sub('read-tree').env(env).revisions(`${startSha}^{tree}`).run();
    const contents = updates.flatMap((update) => ('content' in update ? [update.content] : []));
    const blobIds = await hashContents(repoPath, dir, contents);
    await git(repoPath).sub('update-index').flag('-z', '--index-info').env(env).input(indexInfo(updates, blobIds, ZERO_SHA)).run();
    const { stdout } = await git(repoPath).sub('write-tree').env(env).run();
    return stdout.toString('utf8').trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * GitLab's "create a commit with multiple files and actions". Validation failures throw
 * CommitActionError / InvalidTreePathError before any ref changes; a branch that moved since
 * `expectedOldSha` throws RefConflictError and leaves the branch as it was.
 */
export async function createCommit(repoPath: string, input: CreateCommitInput): Promise<{ sha: string; tree: string }> {
  const ref = `refs/heads/${input.branch}`;
  if (input.startSha !== null) assertObjectId(input.startSha);
  const expectedOld = input.expectedOldSha === undefined ? input.startSha : input.expectedOldSha;
  // An existing branch only has to be a ref git accepts (it may have been pushed with an odd
  // name); a branch this commit creates must pass the rules for names users choose.
  if (!isValidFullRefName(ref) || (expectedOld === null && userRefNameProblem(input.branch))) throw new ValidationError(t('Branch name is invalid'));
  identityEnv('AUTHOR', input.author); // refuse a bad identity before writing any object
  identityEnv('COMMITTER', input.committer);
  const tree = await writeActionsTree(repoPath, input.startSha, input.actions);
  const sha = await commitTree(repoPath, { tree, parents: input.startSha ? [input.startSha] : [], message: input.message, author: input.author, committer: input.committer });
  // The commit exists but no ref names it yet: a check may still refuse it (push rules).
  await input.beforeRefUpdate?.(sha);
  await updateRef(repoPath, ref, sha, expectedOld);
  return { sha, tree };
}
