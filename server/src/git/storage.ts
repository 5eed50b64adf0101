/**
 * Where repositories live and how they are made and removed.
 *
 * Layout (GitLab's hashed storage): `<dataDir>/repositories/@hashed/<aa>/<bb>/<sha256(id)>.git`.
 * Only the numeric project id reaches the path, so no user-chosen name can steer a
 * repository outside the storage root (Gogs CVE-2026-52813), and renames move nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { git } from './command.js';
import { symbolicRefTarget } from './refs.js';
import { isValidFullRefName, validateBranchName } from './ref-names.js';

export const REPOSITORIES_DIR = 'repositories';

/** `@hashed/aa/bb/<sha256>.git`, relative to the repositories directory. */
export function hashedRepositoryPath(projectId: number): string {
  if (!Number.isSafeInteger(projectId) || projectId <= 0) throw new Error(`not a project id: ${projectId}`);
  const hash = createHash('sha256').update(String(projectId)).digest('hex');
  return join('@hashed', hash.slice(0, 2), hash.slice(2, 4), `${hash}.git`);
}

export function repositoryPath(dataDir: string, projectId: number): string {
  return join(dataDir, REPOSITORIES_DIR, hashedRepositoryPath(projectId));
}

/**
 * Server-side settings every repository gets. Pushed objects are checked; clients may only
 * ask for advertised tips; push options reach our hooks; partial clone is allowed.
 */
const REPOSITORY_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['receive.fsckObjects', 'true'],
  // Cosmetic defects common in old histories (imports of long-lived projects); the checks
  // that matter for safety (.git paths, .gitmodules, broken links) stay errors.
  ['receive.fsck.zeroPaddedFilemode', 'ignore'],
  ['receive.fsck.badTimezone', 'ignore'],
  ['receive.fsck.missingSpaceBeforeDate', 'ignore'],
  ['uploadpack.allowAnySHA1InWant', 'false'],
  ['uploadpack.allowFilter', 'true'],
  ['receive.advertisePushOptions', 'true'],
];

/**
 * Durability: git's default does not fsync refs, so a merge the database recorded could
 * vanish after a power cut. core.fsync exists from git 2.36; older versions would warn
 * ("ignoring unknown core.fsync component"), so the values are tried before they are kept.
 */
const FSYNC_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['core.fsync', 'committed,reference'],
  ['core.fsyncMethod', 'fsync'],
];

export async function pathExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

async function fsyncConfigAccepted(repoPath: string): Promise<boolean> {
  const probe = await git(repoPath).config('core.fsync', 'committed,reference').config('core.fsyncMethod', 'fsync').sub('rev-parse').flag('--git-dir').exec();
  return probe.exitCode === 0 && !/ignoring unknown core\.fsync/.test(probe.stderr);
}

/** `git init --bare` with HEAD at refs/heads/<defaultBranch> and the server settings. */
export async function createBareRepository(repoPath: string, defaultBranch: string): Promise<void> {
  const invalid = validateBranchName(defaultBranch);
  if (invalid) throw new Error(`${invalid}: ${defaultBranch}`);
  if (await pathExists(repoPath)) throw new Error(`repository already exists: ${repoPath}`);
  await mkdir(dirname(repoPath), { recursive: true });
  // --template= : no sample hooks, no description file; the repository holds only what git needs.
  await git(repoPath).sub('init').flag('--bare', '--quiet', '--template=').option('--initial-branch', defaultBranch).run();
  await configureRepository(repoPath);
}

/** Writes the server settings into a repository's own config (new repositories and forks). */
export async function configureRepository(repoPath: string): Promise<void> {
  const settings = (await fsyncConfigAccepted(repoPath)) ? [...REPOSITORY_CONFIG, ...FSYNC_CONFIG] : REPOSITORY_CONFIG;
  for (const [key, value] of settings) {
    await git(repoPath).sub('config').flag('--local').revisions(key, value).run();
  }
}

/** Points HEAD (the default branch) at refs/heads/<branch>. */
export async function setDefaultBranch(repoPath: string, branch: string): Promise<void> {
  if (!isValidFullRefName(`refs/heads/${branch}`)) throw new Error(`not a branch name: ${branch}`);
  await git(repoPath).sub('symbolic-ref').flag('-q').revisions('HEAD', `refs/heads/${branch}`).run();
}

/** The default branch's short name from HEAD, or null when HEAD is detached or unreadable. */
export async function defaultBranch(repoPath: string): Promise<string | null> {
  const target = await symbolicRefTarget(repoPath, 'HEAD');
  return target?.startsWith('refs/heads/') ? target.slice('refs/heads/'.length) : null;
}

/**
 * Removes a repository: first renamed aside (atomic, so no reader sees half a repository),
 * then deleted. Refuses anything that does not look like a repository directory.
 */
export async function removeRepository(repoPath: string): Promise<void> {
  if (!basename(repoPath).endsWith('.git')) throw new Error(`not a repository path: ${repoPath}`);
  if (!(await pathExists(repoPath))) return;
  if (!(await pathExists(join(repoPath, 'HEAD')))) throw new Error(`not a git repository: ${repoPath}`);
  const doomed = `${repoPath}+${randomBytes(6).toString('hex')}+deleted`;
  await rename(repoPath, doomed);
  await rm(doomed, { recursive: true, force: true });
}
