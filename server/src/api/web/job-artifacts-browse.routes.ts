import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import type { JobArtifacts } from '../../domains/runner-protocol/job-artifacts.service.js';
import { ForbiddenError, NotFoundError } from '../../platform/errors.js';
import { projectPathRoute } from './project-path-routes.js';

/**
 * The artifacts browser's data, `GET /:full_path/-/jobs/:job_id/artifacts/browse.json?path=<dir>`
 * (GitLab renders `-/jobs/:id/artifacts/browse/*path` on the server; the web app reads this):
 * the directory's entries, subdirectories first, each with its path in the archive and a
 * file's size, and the archive's name, size and expiry. Files are downloaded through the
 * jobs API (`GET /projects/:id/jobs/:job_id/artifacts/*path`). Same authentication and
 * permission path as the API: a job whose artifacts the caller may not read (a stranger, a
 * non-member while public_builds is off), or a missing directory, is a 404.
 */
export function jobArtifactsBrowseRoutes(app: FastifyInstance, deps: { authenticate(request: FastifyRequest): Promise<Actor>; jobArtifacts: Pick<JobArtifacts, 'browse' | 'downloadOfType'> }): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  projectPathRoute(app, '/-/jobs/:job_id/artifacts/browse.json', async (request, reply, fullPath, params) => {
    const jobId = /^\d{1,15}$/.test(params.job_id ?? '') ? Number(params.job_id) : 0;
    if (jobId === 0) throw new NotFoundError();
    const query = request.query as Record<string, unknown>;
    const path = typeof query.path === 'string' ? query.path : '';
    // GitLab's web controllers answer 404 where its API answers 403 (public_builds off).
    const listing = await deps.jobArtifacts.browse(request.actor, fullPath, jobId, path).catch((error: unknown) => {
      throw error instanceof ForbiddenError ? new NotFoundError() : error;
    });
    reply.header('cache-control', 'no-cache');
    return {
      path: listing.path,
      entries: listing.entries,
      archive: { filename: listing.artifact.filename, size: listing.artifact.size, expire_at: listing.artifact.expire_at ? new Date(listing.artifact.expire_at).toISOString() : null },
    };
  });

  /**
   * `GET /:full_path/-/jobs/:job_id/artifacts/download?file_type=<type>` (GitLab's
   * download_project_job_artifacts_path): the artifact of that type, the archive by default.
   */
  projectPathRoute(app, '/-/jobs/:job_id/artifacts/download', async (request, reply, fullPath, params) => {
    const jobId = /^\d{1,15}$/.test(params.job_id ?? '') ? Number(params.job_id) : 0;
    if (jobId === 0) throw new NotFoundError();
    const query = request.query as Record<string, unknown>;
    const fileType = typeof query.file_type === 'string' ? query.file_type : '';
    const { artifact, body } = await deps.jobArtifacts.downloadOfType(request.actor, fullPath, jobId, fileType).catch((error: unknown) => {
      throw error instanceof ForbiddenError ? new NotFoundError() : error;
    });
    const name = artifact.filename.replace(/["\\\r\n]/g, '_');
    return reply
      .status(200)
      .header('Content-Type', 'application/octet-stream')
      .header('Content-Length', String(artifact.size))
      .header('Content-Disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(artifact.filename)}`)
      .send(body);
  });
}
