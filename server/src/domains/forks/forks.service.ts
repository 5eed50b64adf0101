import type { Visibility } from '@tributary/contracts';
import { VISIBILITIES } from '@tributary/contracts';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import type { EventBus } from '../../platform/events.js';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { forkRepository, setDefaultBranch } from '../../git/index.js';
import type { NamespacesRepository } from '../namespaces/namespaces.repository.js';
import { pathError, type Namespace } from '../namespaces/namespace.js';
import type { Project } from '../projects/project.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import { forkVisibility } from './fork-rules.js';

export interface ForkInput {
  namespaceId?: string;
  namespacePath?: string;
  name?: string;
  path?: string;
  description?: string;
  visibility?: string;
}

const TAKEN = { name: ['has already been taken'], path: ['has already been taken'] };

/**
 * POST /projects/:id/fork (doc/api/project_forks.md): a new project whose repository is a
 * `clone --bare --local` of the source (objects hard-linked, see git/fork.ts), linked by
 * forked_from_id so merge requests can cross between them.
 */
export function createForksService(deps: {
  db: Pick<Database, 'transaction'>;
  projects: Pick<ProjectsService, 'find'>;
  projectsRepository: Pick<ProjectsRepository, 'insert' | 'findById' | 'recordPush' | 'deleteRow'>;
  namespaces: Pick<NamespacesRepository, 'findById' | 'findByFullPath' | 'findUserNamespace' | 'routeTaken'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'protectDefault'>;
  storage: Pick<RepositoryStorage, 'pathFor' | 'remove'>;
  authorizer: Authorizer;
  events: Pick<EventBus, 'publish'>;
}) {
  /** GitLab: the namespace must exist and the caller may create projects in it, else 404 Target Namespace. */
  async function targetNamespace(actor: Actor & { user: NonNullable<Actor['user']> }, input: ForkInput): Promise<Namespace> {
    const key = input.namespaceId ?? input.namespacePath;
    let namespace: Namespace | undefined;
    if (key === undefined || key === '') namespace = await deps.namespaces.findUserNamespace(actor.user.id);
    else if (/^\d+$/.test(key)) namespace = await deps.namespaces.findById(Number(key));
    else namespace = await deps.namespaces.findByFullPath(key);
    if (!namespace || !(await deps.authorizer.can(actor, 'create_projects', { group: namespace }))) throw new NotFoundError('Target Namespace');
    return namespace;
  }

  return {
    async fork(actor: Actor, sourceIdOrPath: string | number, input: ForkInput): Promise<Project> {
      if (!actor.user) throw new UnauthorizedError();
      const signed = actor as Actor & { user: NonNullable<Actor['user']> };
      const source = await deps.projects.find(actor, sourceIdOrPath);
      // GitLab answers 404 (not 403) when the caller may see the project but not fork it.
      if (!(await deps.authorizer.can(actor, 'fork_project', { project: source }))) throw new NotFoundError();
      if (input.visibility !== undefined && !VISIBILITIES.includes(input.visibility as Visibility)) throw ValidationError.field('visibility', 'does not have a valid value');
      const namespace = await targetNamespace(signed, input);
      const name = input.name ?? source.name;
      const path = input.path ?? source.path;
      const error = pathError(path);
      if (error) throw ValidationError.field('path', error);
      const visibility = forkVisibility({
        requested: input.visibility as Visibility | undefined,
        source: source.visibility,
        namespace: namespace.kind === 'group' ? namespace.visibility : null,
      });
      const fullPath = `${namespace.full_path}/${path}`;
      let forkId: number;
      try {
        forkId = await deps.db.transaction(async (tx) => {
          if (await deps.namespaces.routeTaken(fullPath, tx)) throw new ConflictError(TAKEN);
          const id = await deps.projectsRepository.insert(
            {
              namespaceId: namespace.id,
              name,
              path,
              fullPath,
              fullName: `${namespace.full_name} / ${name}`,
              description: input.description ?? source.description,
              visibility,
              defaultBranch: source.default_branch,
              creatorId: signed.user.id,
              forkedFromId: source.id,
            },
            tx,
          );
          await deps.protectedBranches.protectDefault(id, source.default_branch, tx);
          await deps.events.publish('project.created', { projectId: id }, tx);
          return id;
        });
      } catch (caught) {
        if (isUniqueViolation(caught)) throw new ConflictError(TAKEN);
        throw caught;
      }
      const forkPath = deps.storage.pathFor(forkId);
      try {
        await forkRepository(deps.storage.pathFor(source.id), forkPath);
        await setDefaultBranch(forkPath, source.default_branch);
        await deps.projectsRepository.recordPush(forkId, source.empty_repo);
      } catch (caught) {
        // No half-made fork: without its repository the row goes too.
        await deps.projectsRepository.deleteRow(forkId);
        await deps.storage.remove(forkId).catch(() => undefined);
        throw caught;
      }
      return (await deps.projectsRepository.findById(forkId))!;
    },
  };
}

export type ForksService = ReturnType<typeof createForksService>;
