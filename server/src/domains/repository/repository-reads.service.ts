import type { ChildProcess } from 'node:child_process';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import { spawnArchive, type ArchiveFormat } from '../../git/archive.js';
import { blame, type BlameRange } from '../../git/blame.js';
import { getCommit, type GitCommit } from '../../git/commits.js';
import { git } from '../../git/command.js';
import { contributors, type Contributor } from '../../git/contributors.js';
import { refsContaining, type ContainingRef } from '../../git/ref-contains.js';
import { resolveCommit } from '../../git/refs.js';
import { readBlob, readEntry } from '../../git/tree.js';
import type { Project } from '../projects/project.js';
import { archiveName } from './archive-name.js';
import { assertFilePath } from './file-rules.js';
import type { RepositoryAccess } from './repository-access.js';

/** A SHA as GitLab's routes take it: 4 to 64 hex digits (abbreviated or full). */
const SHA_LIKE = /^[0-9a-fA-F]{4,64}$/;

export type ContributorOrder = 'name' | 'email' | 'commits';

/**
 * Repository reads beside files and commits (doc/api/repositories.md, repository_files.md,
 * commits.md): archives, blame, blobs by SHA, the refs containing a commit, contributors.
 * Each needs `download_code` on the project (404 for what the caller may not see).
 */
export function createRepositoryReadsService(deps: { access: Pick<RepositoryAccess, 'open'> }) {
  const open = (actor: Actor, idOrPath: string | number) => deps.access.open(actor, idOrPath, 'download_code');

  async function commitOf(repoPath: string, rev: string): Promise<string> {
    const commitId = await resolveCommit(repoPath, rev);
    if (!commitId) throw new NotFoundError('Commit');
    return commitId;
  }

  return {
    async archive(actor: Actor, idOrPath: string | number, input: { sha?: string; path?: string; format: ArchiveFormat }): Promise<{ filename: string; start(): ChildProcess }> {
      const { project, repoPath } = await open(actor, idOrPath);
      const ref = input.sha || project.default_branch;
      const commitId = await commitOf(repoPath, ref);
      const path = input.path?.replace(/^\/+|\/+$/g, '') || undefined;
      if (path) {
        assertFilePath(path);
        if (!(await readEntry(repoPath, commitId, path))) throw new NotFoundError('File');
      }
      const name = archiveName(project.path, ref, commitId, path);
      return { filename: `${name}.${input.format}`, start: () => spawnArchive(repoPath, { commitId, format: input.format, prefix: name, path }) };
    },

    async blame(actor: Actor, idOrPath: string | number, path: string, input: { ref: string; range?: { start: number; end: number } }): Promise<{ project: Project; ranges: Array<{ commit: GitCommit; lines: string[] }> }> {
      const { project, repoPath } = await open(actor, idOrPath);
      assertFilePath(path);
      const commitId = await commitOf(repoPath, input.ref);
      const entry = await readEntry(repoPath, commitId, path);
      if (!entry || entry.type !== 'blob') throw new NotFoundError('File');
      let range = input.range;
      if (range) {
        const content = (await readBlob(repoPath, entry.id)) ?? Buffer.alloc(0);
        const lineCount = content.length === 0 ? 0 : content.toString('utf8').split('\n').length - (content[content.length - 1] === 0x0a ? 1 : 0);
        if (range.start > lineCount) throw new ValidationError('400 (Bad request) "range[start]" is out of range');
        range = { start: range.start, end: Math.min(range.end, lineCount) };
      }
      const ranges: BlameRange[] = await blame(repoPath, commitId, path, range);
      const commits = new Map<string, GitCommit>();
      await Promise.all([...new Set(ranges.map((r) => r.commitId))].map(async (id) => commits.set(id, (await getCommit(repoPath, id))!)));
      return { project, ranges: ranges.map((r) => ({ commit: commits.get(r.commitId)!, lines: r.lines })) };
    },

    /** A blob by SHA, only from this project's repository. */
    async blob(actor: Actor, idOrPath: string | number, sha: string): Promise<{ sha: string; content: Buffer }> {
      const { repoPath } = await open(actor, idOrPath);
      if (!SHA_LIKE.test(sha)) throw new NotFoundError('Blob');
      const result = await git(repoPath).sub('rev-parse').flag('--verify', '--quiet').revisions(`${sha.toLowerCase()}^{blob}`).exec();
      if (result.exitCode !== 0) throw new NotFoundError('Blob');
      const id = result.stdout.toString('utf8').trim();
      const content = await readBlob(repoPath, id);
      if (!content) throw new NotFoundError('Blob');
      return { sha: id, content };
    },

    async commitRefs(actor: Actor, idOrPath: string | number, sha: string, type: 'branch' | 'tag' | 'all'): Promise<ContainingRef[]> {
      const { repoPath } = await open(actor, idOrPath);
      if (!SHA_LIKE.test(sha)) throw new NotFoundError('Commit');
      const commitId = await commitOf(repoPath, sha);
      return refsContaining(repoPath, commitId, type === 'all' ? ['branch', 'tag'] : [type]);
    },

    /** GitLab's contributors: commits per author email on a ref (the default branch), merges left out. */
    async contributors(actor: Actor, idOrPath: string | number, input: { ref?: string; orderBy: ContributorOrder; sort: 'asc' | 'desc' }): Promise<Contributor[]> {
      const { project, repoPath } = await open(actor, idOrPath);
      const commitId = await resolveCommit(repoPath, input.ref || project.default_branch);
      if (!commitId) return [];
      const list = await contributors(repoPath, commitId);
      const key = input.orderBy;
      list.sort((a, b) => {
        const order = key === 'commits' ? a.commits - b.commits : a[key].localeCompare(b[key]);
        return (input.sort === 'desc' ? -order : order) || a.email.localeCompare(b.email);
      });
      return list;
    },
  };
}

export type RepositoryReadsService = ReturnType<typeof createRepositoryReadsService>;
