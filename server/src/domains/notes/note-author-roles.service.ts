/**
 * The role badges (GitLab's note fields human_access, is_contributor): for every
 * note author of a merge request the caller may read, their access level or contributor flag.
 * The merge request is opened through MergeRequestsService.open, the one permission path, so
 * one the caller may not see is a 404; authors of internal notes are left out for callers who
 * may not read internal notes.
 */
import type { Actor } from '../../auth/actor.js';
import type { MergeRequestsService } from '../merge-requests/merge-requests.service.js';
import type { createNoteAuthorRolesRepository } from './note-author-roles.repository.js';

export interface AuthorRole {
  /** null: not a member */
  access_level: number | null;
  /** a non-member with a merged merge request in the project */
  contributor: boolean;
}

export function createNoteAuthorRolesService(deps: {
  mergeRequests: Pick<MergeRequestsService, 'open'>;
  roles: ReturnType<typeof createNoteAuthorRolesRepository>;
}) {
  return {
    async forMergeRequest(actor: Actor, idOrPath: string | number, iid: number): Promise<Record<string, AuthorRole>> {
      const { project, mergeRequest, abilities } = await deps.mergeRequests.open(actor, idOrPath, iid);
      const rows = await deps.roles.forMergeRequest({
        mergeRequestId: mergeRequest.id,
        projectId: project.id,
        traversalIds: project.namespace_kind === 'group' ? project.namespace_traversal_ids : [],
        namespaceOwnerId: project.namespace_owner_id,
        includeInternal: abilities.has('read_internal_note'),
      });
      const roles: Record<string, AuthorRole> = {};
      for (const row of rows) {
        const member = row.access_level > 0;
        roles[String(row.user_id)] = { access_level: member ? row.access_level : null, contributor: !member && row.contributor };
      }
      return roles;
    },
  };
}
