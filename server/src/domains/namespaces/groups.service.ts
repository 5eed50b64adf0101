import { VISIBILITIES, type Visibility, AccessLevel } from '@tributary/contracts';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { MembersRepository } from '../members/members.repository.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import { RESERVED_TOP_LEVEL_PATHS } from '../users/user.js';
import type { GroupListFilter, NamespacesRepository } from './namespaces.repository.js';
import { groupNameError, pathError, type Namespace } from './namespace.js';
import { groupVisibilityErrors } from './visibility-rules.js';

export interface CreateGroupInput {
  name?: string;
  path?: string;
  parent_id?: number | null;
  visibility?: string;
  description?: string;
}

export function createGroupsService(deps: {
  db: Pick<Database, 'transaction'>;
  namespaces: NamespacesRepository;
  members: Pick<MembersRepository, 'insert'>;
  projects: Pick<ProjectsRepository, 'idsInNamespaces' | 'markPendingDelete'>;
  authorizer: Authorizer;
  onProjectsDeleted: (projectIds: number[], tx: import('../../platform/db/database.js').Queryable) => Promise<void>;
}) {
  /** Finds a group by id or full path; 404 when absent or not visible to the actor. */
  async function find(actor: Actor, idOrPath: string | number): Promise<Namespace> {
    const ns = /^\d+$/.test(String(idOrPath))
      ? await deps.namespaces.findById(Number(idOrPath))
      : await deps.namespaces.findByFullPath(String(idOrPath));
    if (!ns || ns.kind !== 'group' || !(await deps.authorizer.canRead(actor, { group: ns }))) throw new NotFoundError('Group');
    return ns;
  }

  return {
    find,
    /** Finds a user namespace or group a project may be created in (GET /namespaces/:id). */
    async findNamespace(actor: Actor, idOrPath: string | number): Promise<Namespace> {
      const ns = /^\d+$/.test(String(idOrPath))
        ? await deps.namespaces.findById(Number(idOrPath))
        : await deps.namespaces.findByFullPath(String(idOrPath));
      if (!ns || !(await deps.authorizer.canRead(actor, { group: ns }))) throw new NotFoundError('Namespace');
      return ns;
    },
    async create(actor: Actor, input: CreateGroupInput): Promise<Namespace> {
      if (!actor.user) throw new NotFoundError();
      if (!input.name) throw ValidationError.missing('name');
      const nameError = groupNameError(input.name);
      if (nameError) throw ValidationError.field('name', nameError);
      if (!input.path) throw ValidationError.missing('path');
      const visibility = (input.visibility ?? 'private') as Visibility;
      if (!VISIBILITIES.includes(visibility)) throw ValidationError.field('visibility', 'does not have a valid value');
      const error = pathError(input.path);
      if (error) throw ValidationError.field('path', error);
      let parent: Namespace | null = null;
      if (input.parent_id) {
        parent = await find(actor, input.parent_id);
        await deps.authorizer.authorize(actor, 'create_subgroup', { group: parent });
        const errors = groupVisibilityErrors(visibility, { parent: parent.visibility, projects: [], subgroups: [] });
        if (errors.length > 0) throw new ValidationError({ visibility_level: errors });
      } else if (RESERVED_TOP_LEVEL_PATHS.has(input.path.toLowerCase())) {
        throw ValidationError.field('path', `${input.path} is a reserved name`);
      }
      const fullPath = parent ? `${parent.full_path}/${input.path}` : input.path;
      try {
        return await deps.db.transaction(async (tx) => {
          if (await deps.namespaces.routeTaken(fullPath, tx)) throw ValidationError.field('path', 'has already been taken');
          const group = await deps.namespaces.insert(
            { kind: 'group', name: input.name!, path: input.path!, parent, ownerId: null, visibility, description: input.description ?? '' },
            tx,
          );
          // The creator owns the group (GitLab adds them as an Owner member).
          await deps.members.insert({ kind: 'group', id: group.id, traversalIds: group.traversal_ids }, { userId: actor.user!.id, accessLevel: AccessLevel.Owner, expiresAt: null, createdById: actor.user!.id }, tx);
          return group;
        });
      } catch (caught) {
        if (isUniqueViolation(caught)) throw ValidationError.field('path', 'has already been taken');
        throw caught;
      }
    },
    async update(actor: Actor, idOrPath: string | number, input: { name?: string; path?: string; description?: string; visibility?: string }): Promise<Namespace> {
      const group = await find(actor, idOrPath);
      await deps.authorizer.authorize(actor, 'admin_group', { group });
      if (input.visibility !== undefined && !VISIBILITIES.includes(input.visibility as Visibility)) throw ValidationError.field('visibility', 'does not have a valid value');
      const nameError = input.name === undefined ? null : groupNameError(input.name);
      if (nameError) throw ValidationError.field('name', nameError);
      const newPath = input.path !== undefined && input.path !== group.path ? input.path : undefined;
      const pathProblem = newPath === undefined ? null : pathError(newPath);
      if (pathProblem) throw ValidationError.field('path', pathProblem);
      if (newPath !== undefined && group.parent_id === null && RESERVED_TOP_LEVEL_PATHS.has(newPath.toLowerCase())) throw ValidationError.field('path', `${newPath} is a reserved name`);
      await deps.db.transaction(async (tx) => {
        if (newPath !== undefined) {
          const fullPath = `${group.full_path.slice(0, group.full_path.length - group.path.length)}${newPath}`;
          if (fullPath.toLowerCase() !== group.full_path.toLowerCase() && (await deps.namespaces.routeTaken(fullPath, tx))) throw ValidationError.field('path', 'has already been taken');
          await deps.namespaces.changePath(group, newPath, tx);
        }
        if (input.visibility !== undefined && input.visibility !== group.visibility) {
          const errors = groupVisibilityErrors(input.visibility as Visibility, await deps.namespaces.lockForVisibility(group.id, tx));
          if (errors.length > 0) throw new ValidationError({ visibility_level: errors });
        }
        await deps.namespaces.update(group.id, { name: input.name, description: input.description, visibility: input.visibility }, tx);
      }).catch((caught: unknown) => {
        if (isUniqueViolation(caught)) throw ValidationError.field('path', 'has already been taken');
        throw caught;
      });
      return (await deps.namespaces.findById(group.id))!;
    },
    /** Deletes a group, its subgroups and their projects; repositories are removed by a background job. */
    async remove(actor: Actor, idOrPath: string | number): Promise<void> {
      const group = await find(actor, idOrPath);
      await deps.authorizer.authorize(actor, 'remove_group', { group });
      await deps.db.transaction(async (tx) => {
        const namespaceIds = await deps.namespaces.subtreeIds(group.id, tx);
        const projectIds = await deps.projects.idsInNamespaces(namespaceIds, tx);
        if (projectIds.length) {
          await deps.projects.markPendingDelete(projectIds, tx);
          await deps.onProjectsDeleted(projectIds, tx);
        }
        await deps.namespaces.deleteSubtree(group.id, tx);
      });
    },
    list(actor: Actor, filter: Omit<GroupListFilter, 'userId' | 'isAdmin'>) {
      return deps.namespaces.list({ ...filter, userId: actor.user?.id ?? null, isAdmin: actor.user?.is_admin === true });
    },
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;
