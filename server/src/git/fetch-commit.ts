/**
 * Copies a commit (and what it needs) from one repository on this server into another,
 * without moving any ref: the caller then points its own ref at the commit with a
 * compare-and-swap. Used for merge requests from forks, whose source commits must live in
 * the target repository (refs/merge-requests/:iid/head). Both paths are trusted absolute
 * paths from storage, never user input.
 */
import { assertObjectId, git } from './command.js';
import { GitArgumentError } from './errors.js';

/** Whether the repository holds the object. */
export async function hasObject(repoPath: string, sha: string): Promise<boolean> {
  const result = await git(repoPath).sub('cat-file').flag('-e').revisions(assertObjectId(sha)).exec();
  return result.exitCode === 0;
}

/**
 * Makes `sha` available in `targetPath`, fetching it from `sourcePath` when it is missing.
 * Protocol v2 (git's default) lets a local fetch ask for any object id the source has.
 */
export async function fetchCommit(targetPath: string, sourcePath: string, sha: string): Promise<void> {
  assertObjectId(sha);
  if (!sourcePath.startsWith('/')) throw new GitArgumentError('Repository path must be absolute', sourcePath);
  if (await hasObject(targetPath, sha)) return;
  await git(targetPath)
    .sub('fetch')
    .flag('--quiet', '--no-tags', '--no-write-fetch-head', '--no-auto-maintenance', '--no-recurse-submodules')
    .revisions(sourcePath, sha)
    .timeout(10 * 60_000)
    .run();
}
