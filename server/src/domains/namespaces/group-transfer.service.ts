import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { GroupsService } from './groups.service.js';
import type { Namespace } from './namespace.js';
import type { NamespacesRepository } from './namespaces.repository.js';

/** GitLab's Groups::TransferService refusals, word for word (the API prefixes 'Transfer failed: '). */
export const GROUP_TRANSFER_ERRORS = {
  alreadyRoot: 'Group is already a root group.',
  sameParent: 'Group is already associated to the parent group.',
  samePath: 'The parent group already has a subgroup or a project with the same path.',
  permissions: "You don't have enough permissions.",
  toSubgroup: 'Cannot transfer group to one of its subgroup.',
} as const;

const failure = (message: string) => new ValidationError(`Transfer failed: ${message}`);

/**
 * Why a group may not move under `parent` (null: to the top level), or null. Pure: the
 * permission and the path's availability are checked by the service.
 */
export function groupTransferRefusal(group: Pick<Namespace, 'id' | 'parent_id'>, parent: Pick<Namespace, 'id' | 'traversal_ids'> | null): string | null {
  if (parent === null) return group.parent_id === null ? GROUP_TRANSFER_ERRORS.alreadyRoot : null;
  if (parent.id === group.parent_id) return GROUP_TRANSFER_ERRORS.sameParent;
  if (parent.traversal_ids.includes(group.id)) return GROUP_TRANSFER_ERRORS.toSubgroup;
  return null;
}

/**
 * `POST /groups/:id/transfer` with `group_id` (absent: make it a top-level group). The caller
 * must own the group and the new parent (GitLab's admin_group on both). Projects keep their
 * repositories (stored by id); their paths and every route below the group change in one transaction.
 */
export function createGroupTransferService(deps: {
  db: Pick<Database, 'transaction'>;
  groups: Pick<GroupsService, 'find'>;
  namespaces: Pick<NamespacesRepository, 'moveSubtree' | 'routeTaken' | 'findById'>;
  authorizer: Pick<Authorizer, 'authorize' | 'can'>;
}) {
  return {
    async transfer(actor: Actor, idOrPath: string | number, parentId: string | number | undefined): Promise<Namespace> {
      const group = await deps.groups.find(actor, idOrPath);
      await deps.authorizer.authorize(actor, 'admin_group', { group });
      const parent = parentId === undefined || parentId === '' ? null : await deps.groups.find(actor, parentId);
      const refusal = groupTransferRefusal(group, parent);
      if (refusal) throw failure(refusal);
      if (parent && !(await deps.authorizer.can(actor, 'admin_group', { group: parent }))) throw failure(GROUP_TRANSFER_ERRORS.permissions);
      const newPath = parent ? `${parent.full_path}/${group.path}` : group.path;
      try {
        await deps.db.transaction(async (tx) => {
          if (await deps.namespaces.routeTaken(newPath, tx)) throw failure(GROUP_TRANSFER_ERRORS.samePath);
          await deps.namespaces.moveSubtree(group, parent, tx);
        });
      } catch (caught) {
        if (isUniqueViolation(caught)) throw failure(GROUP_TRANSFER_ERRORS.samePath);
        throw caught;
      }
      const moved = await deps.namespaces.findById(group.id);
      if (!moved) throw new NotFoundError('Group');
      return moved;
    },
  };
}

export type GroupTransferService = ReturnType<typeof createGroupTransferService>;
