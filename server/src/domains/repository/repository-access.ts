import { UnauthorizedError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { ProjectAction } from '../../auth/permissions.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { PusherFacts } from '../protected-branches/push-rules.js';
import type { Collaboration } from '../merge-requests/collaboration.service.js';

/** A project the caller may act on, with the path of its bare repository. */
export interface RepositoryHandle {
  project: Project;
  repoPath: string;
}

export interface RepositoryAccessDeps {
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize' | 'accessLevel' | 'can'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  /** branches opened to non-members by merge requests allowing collaboration */
  collaboration?: Pick<Collaboration, 'pusher' | 'branchesFor'>;
}

/**
 * The first step of every repository endpoint: find the project (404 when the
 * caller may not see it) and check the one permission function for `action`
 * (403 when visible but not allowed).
 */
export function createRepositoryAccess(deps: RepositoryAccessDeps) {
  async function open(actor: Actor, idOrPath: string | number, action: ProjectAction): Promise<RepositoryHandle> {
    const project = await deps.projects.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, action, { project });
    return { project, repoPath: deps.storage.pathFor(project.id) };
  }

  /** What the push rules need to know about a signed-in caller. */
  async function pusher(actor: Actor, project: Project): Promise<PusherFacts> {
    if (!actor.user) throw new UnauthorizedError();
    const accessLevel = await deps.authorizer.accessLevel(actor, { project });
    if (deps.collaboration) return deps.collaboration.pusher(actor, project, accessLevel);
    return { userId: actor.user.id, isAdmin: actor.user.is_admin, accessLevel };
  }

  /**
   * `open(…, 'push_code')` for a write to one branch: a caller without push rights still
   * passes when a merge request allowing collaboration opens that branch to them (the push
   * rules then allow only a fast-forward of it). Others get open's 404 or 403.
   */
  async function openToWrite(actor: Actor, idOrPath: string | number, branch: string): Promise<RepositoryHandle> {
    const project = await deps.projects.find(actor, idOrPath);
    if (deps.collaboration && actor.user && !(await deps.authorizer.can(actor, 'push_code', { project }))) {
      if ((await deps.collaboration.branchesFor(actor, project)).includes(branch)) return { project, repoPath: deps.storage.pathFor(project.id) };
    }
    await deps.authorizer.authorize(actor, 'push_code', { project });
    return { project, repoPath: deps.storage.pathFor(project.id) };
  }

  /** The caller's pusher facts when they may push to the project at all, else null (for `can_push`). */
  async function pusherIfAllowed(actor: Actor, project: Project): Promise<PusherFacts | null> {
    if (!actor.user || !(await deps.authorizer.can(actor, 'push_code', { project }))) return null;
    return pusher(actor, project);
  }

  return { open, openToWrite, pusher, pusherIfAllowed };
}

export type RepositoryAccess = ReturnType<typeof createRepositoryAccess>;
