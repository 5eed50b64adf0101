import type { FastifyInstance } from 'fastify';
import type { DescriptionVersion } from '../../../domains/description-versions/description-versions.repository.js';
import { signedIn, type RestContext } from '../context.js';
import { Input, Int, Optional, PathId, routes } from '../input/route-kit.js';
import { MergeRequestPath } from './merge-requests/input.js';
import { mergeRequestRef } from './merge-requests/merge-requests.js';

/**
 * A merge request's description history. GitLab has no REST API for it (its web app calls
 * `…/-/merge_requests/:iid/descriptions/:version_id/diff` and DELETE on the version); these are
 * the same calls under the merge request's API path:
 *
 *   GET    /projects/:id/merge_requests/:iid/description_versions
 *   GET    /projects/:id/merge_requests/:iid/description_versions/:version_id/diff[?start_version_id=]
 *   DELETE /projects/:id/merge_requests/:iid/description_versions/:version_id
 */
export function descriptionVersionRoutes(app: FastifyInstance, ctx: RestContext<'descriptionVersions'>): void {
  const { descriptionVersions } = ctx.services;
  const r = routes(app);
  const base = '/projects/:id/merge_requests/:iid/description_versions';
  const Version = { ...MergeRequestPath, version_id: PathId('Description version') };
  const brief = (version: DescriptionVersion) => ({ id: version.id, author_id: version.author_id, created_at: version.created_at });

  r.get(base, Input(MergeRequestPath), async (params, request) =>
    (await descriptionVersions.list(...mergeRequestRef(request, params))).map((version) => ({
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

  r.get(`${base}/:version_id/diff`, Input({ ...Version, start_version_id: Optional(Int()) }), async (params, request) => {
    const { version, start, diff } = await descriptionVersions.diff(mergeRequestRef(request, params), params.version_id, params.start_version_id);
    return { version: brief(version), start_version: start ? brief(start) : null, diff };
  });

  r.delete(`${base}/:version_id`, Input(Version), async (params, request, reply) => {
    signedIn(request);
    await descriptionVersions.remove(mergeRequestRef(request, params), params.version_id);
    return reply.status(204).send();
  });
}
