import { UnauthorizedError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { ProjectAction } from '../../auth/permissions.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { PusherFacts } from '../protected-branches/push-rules.js';

/** A project the caller may act on, with the path of its bare repository. */
export interface RepositoryHandle {
  project: Project;
  repoPath: string;
}

export interface RepositoryAccessDeps {
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize' | 'accessLevel' | 'can'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
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
    return { userId: actor.user.id, isAdmin: actor.user.is_admin, accessLevel: await deps.authorizer.accessLevel(actor, { project }) };
  }

  /** The caller's pusher facts when they may push to the project at all, else null (for `can_push`). */
  async function pusherIfAllowed(actor: Actor, project: Project): Promise<PusherFacts | null> {
    if (!actor.user || !(await deps.authorizer.can(actor, 'push_code', { project }))) return null;
    return pusher(actor, project);
  }

  return { open, pusher, pusherIfAllowed };
}

export type RepositoryAccess = ReturnType<typeof createRepositoryAccess>;
