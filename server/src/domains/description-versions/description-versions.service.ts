/**
 * The description history of a merge request: its versions, the word diff of one version
 * against the one before it (or a chosen start version), and soft deletion. Reading needs the
 * merge request (404 otherwise, like the merge request itself); deleting a version needs to be
 * its author or a Maintainer (GitLab's admin_description_version).
 */
import type { Actor } from '../../auth/actor.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../platform/errors.js';
import type { MergeRequestsService } from '../merge-requests/merge-requests.service.js';
import { descriptionDiff, type DiffSegment } from './description-diff.js';
import type { DescriptionVersion, DescriptionVersionsRepository } from './description-versions.repository.js';

export type MergeRequestRef = [actor: Actor, idOrPath: string | number, iid: number];

export interface VersionView extends DescriptionVersion {
  can_delete: boolean;
}

export function createDescriptionVersionsService(deps: { mergeRequests: Pick<MergeRequestsService, 'open'>; versions: DescriptionVersionsRepository }) {
  async function scope(...[actor, idOrPath, iid]: MergeRequestRef) {
    const opened = await deps.mergeRequests.open(actor, idOrPath, iid);
    const canDelete = (version: DescriptionVersion) => actor.user !== null && (version.author_id === actor.user.id || opened.abilities.has('admin_project'));
    return { ...opened, canDelete };
  }

  async function live(mergeRequestId: number, id: number): Promise<DescriptionVersion> {
    const version = Number.isSafeInteger(id) ? await deps.versions.find(mergeRequestId, id) : undefined;
    if (!version || version.deleted_at) throw new NotFoundError('Description version');
    return version;
  }

  return {
    async list(...ref: MergeRequestRef): Promise<VersionView[]> {
      const { mergeRequest, canDelete } = await scope(...ref);
      // a deleted version keeps its place in the history, not its text
      return (await deps.versions.list(mergeRequest.id)).map((v) => ({ ...v, description: v.deleted_at ? '' : v.description, can_delete: !v.deleted_at && canDelete(v) }));
    },

    async diff(ref: MergeRequestRef, versionId: number, startVersionId?: number): Promise<{ version: DescriptionVersion; start: DescriptionVersion | null; diff: DiffSegment[] }> {
      const { mergeRequest } = await scope(...ref);
      const version = await live(mergeRequest.id, versionId);
      const start = startVersionId !== undefined ? await live(mergeRequest.id, startVersionId) : ((await deps.versions.previous(mergeRequest.id, version.id)) ?? null);
      if (start && start.id >= version.id) throw new NotFoundError('Description version');
      return { version, start, diff: descriptionDiff(start?.description ?? '', version.description) };
    },

    async remove(ref: MergeRequestRef, versionId: number): Promise<void> {
      if (!ref[0].user) throw new UnauthorizedError();
      const { mergeRequest, canDelete } = await scope(...ref);
      const version = await live(mergeRequest.id, versionId);
      if (!canDelete(version)) throw new ForbiddenError();
      if (!(await deps.versions.softDelete(mergeRequest.id, version.id))) throw new NotFoundError('Description version');
    },
  };
}

export type DescriptionVersionsService = ReturnType<typeof createDescriptionVersionsService>;
