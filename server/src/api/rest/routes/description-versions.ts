import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DescriptionVersion } from '../../../domains/description-versions/description-versions.repository.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { optionalInt } from '../params.js';
import { mergeRequestRef } from './merge-requests/merge-requests.js';
import { parseId } from './notes/input.js';

/**
 * A merge request's description history. GitLab has no REST API for it (its web app calls
 * `…/-/merge_requests/:iid/descriptions/:version_id/diff` and DELETE on the version); these are
 * the same calls under the merge request's API path:
 *
 *   GET    /projects/:id/merge_requests/:iid/description_versions
 *   GET    /projects/:id/merge_requests/:iid/description_versions/:version_id/diff[?start_version_id=]
 *   DELETE /projects/:id/merge_requests/:iid/description_versions/:version_id
 */
export function descriptionVersionRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { descriptionVersions } = ctx.services;
  const base = '/projects/:id/merge_requests/:iid/description_versions';
  const versionId = (request: FastifyRequest) => parseId(pathParam(request, 'version_id'));
  const brief = (version: DescriptionVersion) => ({ id: version.id, author_id: version.author_id, created_at: version.created_at });

  app.get(base, async (request) =>
    (await descriptionVersions.list(...mergeRequestRef(request))).map((version) => ({
      id: version.id,
      description: version.description,
      author_id: version.author_id,
      created_at: version.created_at,
      deleted: version.deleted_at !== null,
      deleted_at: version.deleted_at,
      note_id: version.note_id,
      can_delete: version.can_delete,
    })),
  );

  app.get(`${base}/:version_id/diff`, async (request) => {
    const { version, start, diff } = await descriptionVersions.diff(mergeRequestRef(request), versionId(request), optionalInt(input(request), 'start_version_id'));
    return { version: brief(version), start_version: start ? brief(start) : null, diff };
  });

  app.delete(`${base}/:version_id`, async (request, reply) => {
    signedIn(request);
    await descriptionVersions.remove(mergeRequestRef(request), versionId(request));
    return reply.status(204).send();
  });
}
