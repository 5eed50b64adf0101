import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import { rawContentType } from '../../domains/repository/file-rules.js';
import type { FilesService } from '../../domains/repository/files.service.js';
import { isImageOrVideo, servingHeaders } from '../../domains/uploads/upload-rules.js';
import { NotFoundError } from '../../platform/errors.js';
import { projectPathRoute, RAW_SUFFIX } from './project-path-routes.js';

/** A ref is tried with at most this many of the first segments (GitLab's refs are rarely deeper). */
const MAX_REF_SEGMENTS = 10;

/**
 * `<ref>/<path>` → the splits to try, the longest ref first, as GitLab's ExtractsRef picks the
 * longest ref that exists. Pure.
 */
export function refAndPathSplits(refAndPath: string): { ref: string; path: string }[] {
  const segments = refAndPath.split('/');
  const splits: { ref: string; path: string }[] = [];
  for (let i = Math.min(segments.length - 1, MAX_REF_SEGMENTS); i >= 1; i--) {
    splits.push({ ref: segments.slice(0, i).join('/'), path: segments.slice(i).join('/') });
  }
  return splits;
}

/**
 * `GET /<project>/-/raw/<ref>/<path>`: a repository file as it is, for README images and links,
 * to anyone who may read the project's code (others: 404). Images and videos show inline with
 * their type, text as plain text, anything else downloads; never a page that runs (a sandboxing
 * policy and nosniff, as the API's raw files).
 */
export function rawFileRoutes(app: FastifyInstance, deps: { authenticate(request: FastifyRequest): Promise<Actor>; files: Pick<FilesService, 'read'> }): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  projectPathRoute(app, RAW_SUFFIX, async (request, reply, fullPath, params) => {
    for (const { ref, path } of refAndPathSplits(params['*'] ?? '')) {
      try {
        const { file } = await deps.files.read(request.actor, fullPath, path, ref);
        const text = !isImageOrVideo(file.file_name) && rawContentType(file.content).startsWith('text/');
        const headers = servingHeaders(file.file_name);
        if (text) Object.assign(headers, { 'content-type': 'text/plain; charset=utf-8', 'content-disposition': 'inline' });
        return reply.headers({ ...headers, 'content-security-policy': "default-src 'none'; sandbox", 'content-length': String(file.content.length) }).send(file.content);
      } catch (caught) {
        // Another split may name an existing ref; the project itself being hidden fails them all alike.
        if (!(caught instanceof NotFoundError)) throw caught;
      }
    }
    throw new NotFoundError('File');
  });
}
