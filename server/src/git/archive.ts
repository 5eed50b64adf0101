/**
 * `git archive`, streamed: GitLab's GET /projects/:id/repository/archive[.format]. git 2.39's
 * archive reads `--` as a pathspec after `--end-of-options`, so the commit goes in as a full
 * object id (resolved first) and the path after `--`.
 */
import type { ChildProcess } from 'node:child_process';
import { git } from './command.js';

/** GitLab's archive formats and the git format that writes each. */
export const ARCHIVE_FORMATS = {
  'tar.gz': 'tar.gz',
  tgz: 'tar.gz',
  gz: 'tar.gz',
  'tar.bz2': 'tar.bz2',
  tbz: 'tar.bz2',
  tbz2: 'tar.bz2',
  tb2: 'tar.bz2',
  bz2: 'tar.bz2',
  tar: 'tar',
  zip: 'zip',
} as const;
export type ArchiveFormat = keyof typeof ARCHIVE_FORMATS;

export function isArchiveFormat(value: string): value is ArchiveFormat {
  return Object.hasOwn(ARCHIVE_FORMATS, value);
}

/** An archive run out of git's standard output; the caller pipes it and kills git if the client leaves. */
export function spawnArchive(repoPath: string, input: { commitId: string; format: ArchiveFormat; prefix: string; path?: string }): ChildProcess {
  const format = ARCHIVE_FORMATS[input.format];
  const command = git(repoPath);
  // git writes tar.gz itself; tar.bz2 needs its compressor named (a constant, never user input).
  if (format === 'tar.bz2') command.config('tar.tar.bz2.command', 'bzip2 -c');
  command.sub('archive').option('--format', format).option('--prefix', `${input.prefix}/`).objectIds(input.commitId);
  if (input.path) command.paths(input.path);
  return command.timeout(10 * 60_000).spawnStream();
}
