/**
 * Revert and cherry-pick through the commits API (doc/api/commits.md, "Revert a commit" and
 * "Cherry-pick a commit"): the change of one commit, or its inverse, becomes a new commit on
 * top of an existing branch. Built with plumbing (git/three-way.ts) and written through the
 * commit writer, so push rules, compare-and-swap and the push event are those of any API write.
 */
import { t } from '@tributary/contracts';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import { treesOf } from '../../git/tree.js';
import { getCommit, type GitCommit } from '../../git/commits.js';
import { applyCommitToTree, type PickMode } from '../../git/three-way.js';
import type { Project } from '../projects/project.js';
import { commitStats, type CommitStats } from './commit-stats.js';
import type { CommitWriter } from './commit-writer.js';
import { pickMessage } from './pick-message.js';
import type { RepositoryAccess } from './repository-access.js';

/** GitLab's wording (lib/gitlab/git/repository.rb, Commits::ChangeService). */
const PICK_MESSAGES = {
  revert: 'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.',
  'cherry-pick':
    'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.',
} as const;

/** A refusal GitLab reports as 400 with an `error_code` ('conflict' or 'empty'). */
export class PickRefusedError extends ValidationError {
  constructor(
    message: string,
    readonly errorCode: 'conflict' | 'empty',
  ) {
    super(message);
  }
}

export interface PickInput {
  mode: PickMode;
  sha: string;
  branch: string;
  /** Cherry-pick only: replaces the default message. */
  message?: string;
  dryRun?: boolean;
}

export type PickOutcome = { dryRun: true; project: Project } | { dryRun: false; project: Project; commit: GitCommit; stats: CommitStats };

export function createCommitPicksService(deps: { access: Pick<RepositoryAccess, 'open'>; writer: CommitWriter }) {
  return {
    async apply(actor: Actor, idOrPath: string | number, input: PickInput): Promise<PickOutcome> {
      const handle = await deps.access.open(actor, idOrPath, 'push_code');
      const { repoPath } = handle;
      const commit = await getCommit(repoPath, input.sha);
      if (!commit) throw new NotFoundError('Commit');
      // A merge commit is taken relative to its first parent (GitLab's mainline 1).
      const parent = commit.parent_ids[0] ?? null;
      const identity = { name: actor.user?.name ?? 'Tributary', email: actor.user?.email ?? 'noreply@tributary.invalid' };
      const message = input.mode === 'cherry-pick' && input.message ? input.message : pickMessage(input.mode, commit);
      // A cherry-pick keeps the picked commit's author (as git and Gitaly do); a revert is the caller's.
      const author = input.mode === 'cherry-pick' ? { name: commit.author_name, email: commit.author_email, date: commit.authored_date } : undefined;
      const sha = await deps.writer.writeTree(actor, handle, {
        branch: input.branch,
        message,
        author,
        dryRun: input.dryRun,
        refusal: t('403 Forbidden - You are not allowed to push into this branch'),
        plan: async (tip) => {
          const [commitTree, parentTree, ontoTree] = await treesOf(repoPath, [commit.id, parent ?? commit.id, tip]);
          const result = await applyCommitToTree(repoPath, {
            mode: input.mode,
            commit: commit.id,
            commitTree: commitTree!,
            parent,
            parentTree: parent ? parentTree! : null,
            ontoTree: ontoTree!,
            identity,
          });
          if (result.kind === 'clean') return result.tree;
          throw new PickRefusedError(t(PICK_MESSAGES[input.mode]), result.kind);
        },
      });
      if (sha === null) return { dryRun: true, project: handle.project };
      const written = await getCommit(repoPath, sha);
      if (!written) throw new NotFoundError('Commit');
      return { dryRun: false, project: handle.project, commit: written, stats: await commitStats(repoPath, written) };
    },
  };
}

export type CommitPicksService = ReturnType<typeof createCommitPicksService>;
