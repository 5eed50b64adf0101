import type { Visibility } from '@tributary/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { NamespacesRepository } from '../namespaces/namespaces.repository.js';
import type { Namespace } from '../namespaces/namespace.js';
import { visibilityAllowedUnder } from '../namespaces/visibility-rules.js';
import type { Project } from './project.js';
import type { ProjectsRepository } from './projects.repository.js';
import type { ProjectsService } from './projects.service.js';

/** GitLab's Projects::TransferService refusals, word for word. */
export const TRANSFER_ERRORS = {
  sameNamespace: 'Project is already in this namespace.',
  notAllowedInto: "You don't have permission to transfer projects into that namespace.",
  nameTaken: 'Project with same name or path in target namespace already exists',
} as const;

/**
 * GitLab's API wraps the service's error as `Failed to transfer project <errors.messages>`,
 * the Ruby inspection of `{new_namespace: [message]}`.
 */
export function transferFailure(message: string): ValidationError {
  return new ValidationError(`Failed to transfer project {:new_namespace=>${JSON.stringify([message])}}`);
}

/**
 * A project moved under a less visible namespace becomes as visible as that namespace
 * (GitLab's TransferService lowers it); otherwise it keeps its visibility. Pure.
 */
export function visibilityAfterTransfer(project: Visibility, target: Visibility): Visibility {
  return visibilityAllowedUnder(project, target) ? project : target;
}

/**
 * `PUT /projects/:id/transfer`: moves a project to another namespace. Owners of the project only;
 * the caller must be allowed to put projects in the target (a group's Maintainer, or their own
 * namespace). Repositories live at paths hashed from the project id, so nothing moves on disk:
 * the project row's namespace and its route change in one transaction. The old path is not
 * redirected (GitLab keeps a redirect route; ours answers 404 there).
 */
export function createProjectTransferService(deps: {
  db: Pick<Database, 'transaction'>;
  projects: Pick<ProjectsService, 'find'>;
  projectRows: Pick<ProjectsRepository, 'update' | 'updateRoute' | 'nameOrPathTakenIn' | 'findById'>;
  namespaces: Pick<NamespacesRepository, 'findById' | 'findByFullPath' | 'routeTaken'>;
  authorizer: Pick<Authorizer, 'authorize' | 'canRead' | 'can'>;
}) {
  async function targetNamespace(actor: Actor, idOrPath: string): Promise<Namespace> {
    const ns = /^\d+$/.test(idOrPath) ? await deps.namespaces.findById(Number(idOrPath)) : await deps.namespaces.findByFullPath(idOrPath);
    if (!ns || !(await deps.authorizer.canRead(actor, { group: ns }))) throw new NotFoundError('Namespace');
    return ns;
  }

  return {
    async transfer(actor: Actor, idOrPath: string | number, namespace: string | undefined): Promise<Project> {
      const project = await deps.projects.find(actor, idOrPath);
      await deps.authorizer.authorize(actor, 'remove_project', { project });
      if (namespace === undefined || namespace === '') throw new ValidationError('namespace is missing');
      const target = await targetNamespace(actor, namespace);
      if (target.id === project.namespace_id) throw transferFailure(TRANSFER_ERRORS.sameNamespace);
      if (!(await deps.authorizer.can(actor, 'transfer_projects', { group: target }))) throw transferFailure(TRANSFER_ERRORS.notAllowedInto);
      const fullPath = `${target.full_path}/${project.path}`;
      try {
        await deps.db.transaction(async (tx) => {
          if ((await deps.projectRows.nameOrPathTakenIn(target.id, project.path, project.name, tx)) || (await deps.namespaces.routeTaken(fullPath, tx))) {
            throw transferFailure(TRANSFER_ERRORS.nameTaken);
          }
          const visibility = visibilityAfterTransfer(project.visibility, target.visibility);
          await deps.projectRows.update(project.id, { namespace_id: target.id, visibility }, tx);
          await deps.projectRows.updateRoute(project.id, fullPath, `${target.full_name} / ${project.name}`, tx);
        });
      } catch (caught) {
        if (isUniqueViolation(caught)) throw transferFailure(TRANSFER_ERRORS.nameTaken);
        throw caught;
      }
      return (await deps.projectRows.findById(project.id))!;
    },
  };
}

export type ProjectTransferService = ReturnType<typeof createProjectTransferService>;
