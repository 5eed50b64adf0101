import { t } from '@tributary/contracts';
import { NotFoundError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import { getCommit, listCommits, type GitCommit } from '../../git/commits.js';
import { diffCommit, type FileDiff } from '../../git/diff.js';
import type { Project } from '../projects/project.js';
import { FILE_CHANGED_IN_COMMIT, type ParsedActions } from './commit-action-input.js';
import { commitStats, commitsStats, type CommitStats } from './commit-stats.js';
import type { CommitWriter } from './commit-writer.js';
import { assertFilePath } from './file-rules.js';
import type { RepositoryAccess } from './repository-access.js';

export interface CommitListFilter {
  /** A branch, tag, SHA or range; the default branch when absent. Ignored with `all`. */
  refName?: string;
  all?: boolean;
  path?: string;
  since?: Date;
  until?: Date;
  firstParent?: boolean;
  author?: string;
  order?: 'default' | 'topo';
  withStats?: boolean;
  limit: number;
  offset: number;
}

export interface CommitWithStats {
  commit: GitCommit;
  stats: CommitStats | null;
}

export interface CreateCommitInput extends ParsedActions {
  branch: string;
  message: string;
  startBranch?: string;
  startSha?: string;
  authorName?: string;
  authorEmail?: string;
  force?: boolean;
  stats?: boolean;
}

/** The commits API (doc/api/commits.md); compare is compare.service.ts. */
export function createCommitsService(deps: { access: Pick<RepositoryAccess, 'open' | 'openToWrite'>; writer: CommitWriter }) {
  const { access } = deps;

  async function findCommit(repoPath: string, sha: string): Promise<GitCommit> {
    const commit = await getCommit(repoPath, sha);
    if (!commit) throw new NotFoundError('Commit');
    return commit;
  }

  return {
    /** A page of history; an unknown ref gives an empty page, as GitLab does. */
    async list(actor: Actor, idOrPath: string | number, filter: CommitListFilter) {
      const { project, repoPath } = await access.open(actor, idOrPath, 'download_code');
      if (filter.path !== undefined) assertFilePath(filter.path.replace(/\/+$/, ''));
      const page = await listCommits(repoPath, {
        ref: filter.all ? undefined : (filter.refName ?? project.default_branch),
        all: filter.all,
        path: filter.path?.replace(/\/+$/, ''),
        since: filter.since,
        until: filter.until,
        firstParent: filter.firstParent,
        author: filter.author,
        order: filter.order,
        skip: filter.offset,
        limit: filter.limit,
      });
      const commits = page?.commits ?? [];
      const stats = filter.withStats ? await commitsStats(repoPath, commits) : null;
      return { project, hasMore: page?.hasMore ?? false, commits: commits.map((commit, i): CommitWithStats => ({ commit, stats: stats?.[i] ?? null })) };
    },

    async show(actor: Actor, idOrPath: string | number, sha: string, options: { stats?: boolean } = {}): Promise<{ project: Project } & CommitWithStats> {
      const { project, repoPath } = await access.open(actor, idOrPath, 'download_code');
      const commit = await findCommit(repoPath, sha);
      return { project, commit, stats: options.stats === false ? null : await commitStats(repoPath, commit) };
    },

    async diff(actor: Actor, idOrPath: string | number, sha: string): Promise<{ project: Project; diffs: FileDiff[] }> {
      const { project, repoPath } = await access.open(actor, idOrPath, 'download_code');
      const commit = await findCommit(repoPath, sha);
      return { project, diffs: (await diffCommit(repoPath, commit)).diffs };
    },

    async create(actor: Actor, idOrPath: string | number, input: CreateCommitInput): Promise<{ project: Project } & CommitWithStats> {
      const handle = await access.openToWrite(actor, idOrPath, input.branch);
      const sha = await deps.writer.write(actor, handle, {
        branch: input.branch,
        startBranch: input.startBranch ?? (input.startSha === undefined ? input.branch : undefined),
        startSha: input.startSha,
        force: input.force,
        message: input.message,
        authorName: input.authorName,
        authorEmail: input.authorEmail,
        actions: input.actions,
        expectations: input.expectations.map((e) => ({ ...e, message: t(FILE_CHANGED_IN_COMMIT, { path: e.path }) })),
        refusal: t('403 Forbidden - You are not allowed to push into this branch'),
      });
      const commit = await findCommit(handle.repoPath, sha);
      return { project: handle.project, commit, stats: input.stats === false ? null : await commitStats(handle.repoPath, commit) };
    },
  };
}

export type CommitsService = ReturnType<typeof createCommitsService>;
