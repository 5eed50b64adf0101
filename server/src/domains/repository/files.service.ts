import { createHash } from 'node:crypto';
import { t } from '@tributary/contracts';
import { NotFoundError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import { lastCommitForPath } from '../../git/commits.js';
import { resolveCommit } from '../../git/refs.js';
import { readBlobAt, readTree, type TreeEntry } from '../../git/tree.js';
import type { Project } from '../projects/project.js';
import type { CommitWriter } from './commit-writer.js';
import { assertFilePath, fileName } from './file-rules.js';
import type { RepositoryAccess } from './repository-access.js';

/** GitLab's Files::UpdateService::FileChangedError. */
export const FILE_CHANGED_MESSAGE = 'You are attempting to update a file that has changed since you started editing it.';

/** A file at a revision, as GitLab's files API describes it (content as bytes). */
export interface FileView {
  file_name: string;
  file_path: string;
  size: number;
  encoding: 'base64';
  content_sha256: string;
  ref: string;
  blob_id: string;
  commit_id: string;
  last_commit_id: string | null;
  execute_filemode: boolean;
  /** Blob bytes; for a symlink, the link text (never the file it points at). */
  content: Buffer;
}

export interface FileWriteInput {
  branch: string;
  startBranch?: string;
  message: string;
  content?: Buffer;
  authorName?: string;
  authorEmail?: string;
  executeFilemode?: boolean;
  /** PUT only: the last commit the caller saw for this file. */
  lastCommitId?: string;
}

/**
 * Repository tree and files (doc/api/repositories.md#list-repository-tree,
 * doc/api/repository_files.md). Reads resolve against git objects only; writes
 * go through the commit writer (plumbing, no work tree).
 */
export function createFilesService(deps: { access: Pick<RepositoryAccess, 'open' | 'openToWrite'>; writer: CommitWriter }) {
  const { access } = deps;

  async function read(actor: Actor, idOrPath: string | number, path: string, ref: string | undefined): Promise<{ project: Project; file: FileView }> {
    const { project, repoPath } = await access.open(actor, idOrPath, 'download_code');
    assertFilePath(path);
    const rev = ref ?? project.default_branch;
    const commitId = await resolveCommit(repoPath, rev);
    if (!commitId) throw new NotFoundError('Commit');
    const [blob, last] = await Promise.all([readBlobAt(repoPath, commitId, path), lastCommitForPath(repoPath, commitId, path)]);
    if (!blob) throw new NotFoundError('File');
    return {
      project,
      file: {
        file_name: fileName(path),
        file_path: path,
        size: blob.size,
        encoding: 'base64',
        content_sha256: createHash('sha256').update(blob.content).digest('hex'),
        ref: rev,
        blob_id: blob.blobId,
        commit_id: commitId,
        last_commit_id: last?.id ?? null,
        execute_filemode: blob.mode === '100755',
        content: blob.content,
      },
    };
  }

  async function write(actor: Actor, idOrPath: string | number, action: 'create' | 'update' | 'delete', path: string, input: FileWriteInput): Promise<string> {
    const handle = await access.openToWrite(actor, idOrPath, input.branch);
    assertFilePath(path);
    return deps.writer.write(actor, handle, {
      branch: input.branch,
      startBranch: input.startBranch,
      message: input.message,
      authorName: input.authorName,
      authorEmail: input.authorEmail,
      actions: [{ action, file_path: path, content: input.content, execute_filemode: input.executeFilemode }],
      expectations: input.lastCommitId ? [{ path, lastCommitId: input.lastCommitId, message: t(FILE_CHANGED_MESSAGE) }] : [],
    });
  }

  return {
    /** The entries of a directory at `ref` (default branch when absent); 404 for an unknown ref or path. */
    async tree(actor: Actor, idOrPath: string | number, options: { ref?: string; path?: string; recursive?: boolean }): Promise<{ project: Project; entries: TreeEntry[] }> {
      const { project, repoPath } = await access.open(actor, idOrPath, 'download_code');
      const directory = (options.path ?? '').replace(/\/+$/, '');
      if (directory !== '') assertFilePath(directory);
      const commitId = await resolveCommit(repoPath, options.ref ?? project.default_branch);
      const entries = commitId ? await readTree(repoPath, commitId, directory, { recursive: options.recursive }) : null;
      if (!entries) throw new NotFoundError('Tree');
      return { project, entries };
    },
    /** `ref` is required by the JSON and HEAD endpoints; the raw endpoint defaults to the default branch. */
    read,
    create: (actor: Actor, idOrPath: string | number, path: string, input: FileWriteInput) => write(actor, idOrPath, 'create', path, input),
    update: (actor: Actor, idOrPath: string | number, path: string, input: FileWriteInput) => write(actor, idOrPath, 'update', path, input),
    remove: (actor: Actor, idOrPath: string | number, path: string, input: FileWriteInput) => write(actor, idOrPath, 'delete', path, input),
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
