/**
 * A fork's repository: `git clone --bare --local` of the source. With --local git hard-links
 * the object files instead of copying them (objects never change, so sharing them is safe
 * and removing either repository leaves the other whole), and copies branches and tags only,
 * so the source's refs/merge-requests/* and refs/keep-around/* stay behind.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { git, gitWithoutRepository } from './command.js';
import { GitArgumentError } from './errors.js';
import { configureRepository, pathExists } from './storage.js';

/** Clones `sourcePath` into the new bare repository `forkPath`; both are trusted absolute paths from storage. */
export async function forkRepository(sourcePath: string, forkPath: string): Promise<void> {
  if (!sourcePath.startsWith('/') || !forkPath.startsWith('/')) throw new GitArgumentError('Repository paths must be absolute', `${sourcePath} ${forkPath}`);
  if (await pathExists(forkPath)) throw new Error(`repository already exists: ${forkPath}`);
  await mkdir(dirname(forkPath), { recursive: true });
  await gitWithoutRepository()
    .sub('clone')
    .flag('--bare', '--local', '--quiet', '--template=')
    .revisions(sourcePath, forkPath)
    .timeout(10 * 60_000)
    .run();
  // The fork does not track its source: no remote, and the server's own settings.
  await git(forkPath).sub('config').flag('--local', '--remove-section').revisions('remote.origin').run();
  await configureRepository(forkPath);
}
