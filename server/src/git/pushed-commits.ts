/**
 * What a push (or an API write) brings: the commits no ref had before, their messages,
 * author and committer emails and whether they carry a signature, and the files each one
 * adds, renames or changes with their sizes. Push rules judge these (domains/push-rules).
 * During a push the objects are still in git's quarantine: `env` carries the pre-receive
 * hook's object directories so these reads see them.
 */
import { git, assertObjectId } from './command.js';
import { parseCatFileBatch } from './tree-format.js';

export interface PushedCommit {
  sha: string;
  message: string;
  authorEmail: string;
  committerEmail: string;
  /** a gpgsig (or gpgsig-sha256) header: the commit is signed (the signature is not verified) */
  signed: boolean;
}

export interface ChangedFile {
  path: string;
  /** added, copied or renamed here (GitLab's file name rule looks at these) */
  newFile: boolean;
  deleted: boolean;
  blob: string;
}

/** The most commits one push is checked commit by commit (a larger push is checked up to here). */
export const MAX_CHECKED_COMMITS = 10_000;

/** Commits reachable from `tips` and from no ref yet, newest first. */
export async function newCommits(repoPath: string, tips: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<string[]> {
  if (tips.length === 0) return [];
  for (const tip of tips) assertObjectId(tip);
  // `--not --all --not <tips>`: every ref excluded, then the tips (full ids, checked above) included.
  const { stdout } = await git(repoPath).sub('rev-list').option('--max-count', MAX_CHECKED_COMMITS).flag('--not', '--all', '--not').env(env).objectIds(...tips).run();
  return stdout.toString('latin1').split('\n').filter(Boolean);
}

/** Parses a raw commit object's headers and message. Pure. */
export function parseCommitObject(sha: string, content: Buffer): PushedCommit {
  const text = content.toString('utf8');
  const split = text.indexOf('\n\n');
  const headers = split === -1 ? text : text.slice(0, split);
  const message = split === -1 ? '' : text.slice(split + 2);
  const email = (name: string) => new RegExp(`^${name} .*<([^>]*)>`, 'm').exec(headers)?.[1] ?? '';
  return { sha, message, authorEmail: email('author'), committerEmail: email('committer'), signed: /^gpgsig(-sha256)? /m.test(headers) };
}

export async function readCommits(repoPath: string, shas: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<PushedCommit[]> {
  if (shas.length === 0) return [];
  const { stdout } = await git(repoPath).sub('cat-file').flag('--batch').env(env).input(shas.map((sha) => `${sha}\n`).join('')).run();
  return parseCatFileBatch(stdout).flatMap((object) => (object && object.type === 'commit' ? [parseCommitObject(object.id, object.content)] : []));
}

/** `diff-tree --raw -z` output → the changed files. Pure. */
export function parseRawDiff(stdout: Buffer): ChangedFile[] {
  const fields = stdout.toString('utf8').split('\0');
  const files: ChangedFile[] = [];
  for (let i = 0; i < fields.length; i++) {
    const meta = fields[i]!;
    if (!meta.startsWith(':')) continue;
    const [, , , newBlob, status = ''] = meta.slice(1).split(' ');
    const kind = status[0];
    const twoPaths = kind === 'R' || kind === 'C';
    const path = twoPaths ? fields[i + 2]! : fields[i + 1]!;
    i += twoPaths ? 2 : 1;
    files.push({ path, newFile: kind === 'A' || twoPaths, deleted: kind === 'D', blob: newBlob ?? '' });
  }
  return files;
}

/** The files `sha` changes against its first parent (all its files for a root commit). */
export async function changedFiles(repoPath: string, sha: string, env: Readonly<Record<string, string>> = {}): Promise<ChangedFile[]> {
  const { stdout } = await git(repoPath).sub('diff-tree').flag('-r', '--root', '-z', '--raw', '--no-abbrev', '-M', '--no-commit-id').env(env).objectIds(sha).run();
  return parseRawDiff(stdout);
}

/** Blob sizes by id, in one `cat-file --batch-check`. */
export async function blobSizes(repoPath: string, blobs: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (blobs.length === 0) return sizes;
  const { stdout } = await git(repoPath).sub('cat-file').flag('--batch-check').env(env).input(blobs.map((blob) => `${blob}\n`).join('')).run();
  for (const line of stdout.toString('latin1').split('\n')) {
    const [id, type, size] = line.split(' ');
    if (id && type === 'blob' && size) sizes.set(id, Number(size));
  }
  return sizes;
}
