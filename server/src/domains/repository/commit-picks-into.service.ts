/**
 * Revert and Cherry-pick from a merged merge request, as GitLab's web flow does
 * (Projects::CommitController#revert/#cherry_pick with create_merge_request, CreatesCommit):
 * the change goes on a new branch `revert-<sha8>` / `cherry-pick-<sha8>` cut from the target
 * branch, and a merge request from it into the target branch opens. A caller who cannot push
 * to the project gets the branch in their fork (GitLab's `current_user.fork_of(project)`), made
 * first when they have none (GitLab's revert_in_fork_path forks, then picks): the target tip
 * and the picked commit are copied into the fork, and the merge request crosses from it.
 */
import { t } from '@tributary/contracts';
import { ForbiddenError, NotFoundError, nullIfNotFound, UnauthorizedError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { fetchCommit, readRef } from '../../git/index.js';
import { getCommit } from '../../git/commits.js';
import type { PickMode } from '../../git/three-way.js';
import type { ForksRepository } from '../forks/forks.repository.js';
import type { ForksService } from '../forks/forks.service.js';
import type { MergeRequestsService, OpenedMergeRequest } from '../merge-requests/merge-requests.service.js';
import type { NamespacesRepository } from '../namespaces/namespaces.repository.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { BranchesService } from './branches.service.js';
import type { CommitPicksService } from './commit-picks.service.js';

/** GitLab's notices (ForkHelper / edit_in_new_fork_notice). */
export const PICK_INTO_MESSAGES = {
  forkCreated: "You're not allowed to make changes to this project directly. A fork of this project has been created that you can make changes in, so you can submit a merge request.",
  cannotFork: "You're not allowed to make changes to this project directly, and you can't fork it.",
} as const;

/** GitLab's Commit#revert_branch_name / #cherry_pick_branch_name. Pure. */
export function pickBranchName(mode: PickMode, sha: string): string {
  return `${mode}-${sha.slice(0, 8)}`;
}

export interface PickIntoInput {
  mode: PickMode;
  sha: string;
  /** the branch the change is made against, and the merge request's target */
  targetBranch: string;
}

export interface PickIntoOutcome {
  opened: OpenedMergeRequest;
  /** the project the new branch is in: the project itself, or the caller's fork */
  into: Project;
  /** a fork was made for it (the caller is told, as GitLab does) */
  notice: string | null;
}

export function createPickIntoNewBranchService(deps: {
  forksRepository: Pick<ForksRepository, 'forkIn'>;
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'can'>;
  namespaces: Pick<NamespacesRepository, 'findUserNamespace'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  forks: Pick<ForksService, 'fork'>;
  branches: Pick<BranchesService, 'create' | 'remove'>;
  picks: Pick<CommitPicksService, 'apply'>;
  mergeRequests: Pick<MergeRequestsService, 'create'>;
}) {
  /** The caller's fork of `project` in their own namespace (GitLab: Namespace#find_fork_of). */
  async function existingFork(actor: Actor, userId: number, project: Project): Promise<Project | null> {
    const namespace = await deps.namespaces.findUserNamespace(userId);
    if (!namespace) return null;
    const forkId = await deps.forksRepository.forkIn(project.id, namespace.id);
    return forkId === null ? null : deps.projects.find(actor, forkId).catch(nullIfNotFound);
  }

  return {
    async apply(actor: Actor, idOrPath: string | number, input: PickIntoInput): Promise<PickIntoOutcome> {
      const user = actor.user;
      if (!user) throw new UnauthorizedError();
      const project = await deps.projects.find(actor, idOrPath);
      if (!(await deps.authorizer.can(actor, 'download_code', { project }))) throw new NotFoundError('Project');
      const repoPath = deps.storage.pathFor(project.id);
      const commit = await getCommit(repoPath, input.sha);
      if (!commit) throw new NotFoundError('Commit');
      const tip = (await readRef(repoPath, `refs/heads/${input.targetBranch}`))?.target;
      if (!tip) throw new NotFoundError('Branch');

      let into = project;
      let notice: string | null = null;
      if (!(await deps.authorizer.can(actor, 'push_code', { project }))) {
        const fork = await existingFork(actor, user.id, project);
        if (fork) into = fork;
        else {
          if (!(await deps.authorizer.can(actor, 'fork_project', { project }))) throw new ForbiddenError(t(PICK_INTO_MESSAGES.cannotFork));
          into = await deps.forks.fork(actor, project.id, {});
          notice = t(PICK_INTO_MESSAGES.forkCreated);
        }
        // The fork may be behind: it gets the target tip and the commit before anything points at them.
        const forkPath = deps.storage.pathFor(into.id);
        await fetchCommit(forkPath, repoPath, tip);
        await fetchCommit(forkPath, repoPath, commit.id);
      }

      const branch = pickBranchName(input.mode, commit.id);
      await deps.branches.create(actor, into.id, { branch, ref: tip });
      let title: string;
      try {
        const picked = await deps.picks.apply(actor, into.id, { mode: input.mode, sha: commit.id, branch });
        title = picked.dryRun ? commit.title : picked.commit.title;
      } catch (error) {
        // A refused change leaves no branch behind (gitlab-foss#13716).
        await deps.branches.remove(actor, into.id, branch).catch(() => undefined);
        throw error;
      }
      const opened = await deps.mergeRequests.create(actor, into.id, { sourceBranch: branch, targetBranch: input.targetBranch, title, targetProjectId: project.id });
      return { opened, into, notice };
    },
  };
}

export type PickIntoNewBranchService = ReturnType<typeof createPickIntoNewBranchService>;
