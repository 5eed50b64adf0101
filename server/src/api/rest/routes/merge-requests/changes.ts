import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../../platform/errors.js';
import { input, pathParam, type RestContext } from '../../context.js';
import { commitEntity } from '../../entities/commits.js';
import { mergeRequestDiffEntity, versionDetailEntity, versionEntity } from '../../entities/merge-request-diffs.js';
import { userBasic } from '../../entities/users.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { optionalBool, requiredString } from '../../params.js';
import { mergeRequestRef, renderMergeRequest } from './merge-requests.js';

const projectPath = (mr: { target_project_id: number; target_full_path: string }) => ({ id: mr.target_project_id, full_path: mr.target_full_path });

/** What a merge request changes: commits, diffs, versions, raw patch, participants. */
export function mergeRequestChangeRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { mergeRequestChanges: changes } = ctx.services;
  const base = '/projects/:id/merge_requests/:iid';

  app.get(`${base}/commits`, async (request, reply) => {
    const page = parsePage(input(request));
    const { opened, commits, total } = await changes.commits(mergeRequestRef(request), page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, total));
    return commits.map((commit) => commitEntity(commit, projectPath(opened.mergeRequest), ctx.urls));
  });

  // Deprecated in GitLab 15.7 but still used by clients: the merge request plus every diff.
  app.get(`${base}/changes`, async (request) => {
    const unidiff = optionalBool(input(request), 'unidiff') === true;
    const { opened, diffs, overflow } = await changes.changes(mergeRequestRef(request));
    return { ...(await renderMergeRequest(ctx, request.actor, opened)), changes: diffs.map((diff) => mergeRequestDiffEntity(diff, { unidiff })), overflow };
  });

  app.get(`${base}/diffs`, async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const { diffs, total } = await changes.diffs(mergeRequestRef(request), page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, total));
    return diffs.map((diff) => mergeRequestDiffEntity(diff, { unidiff: optionalBool(params, 'unidiff') === true }));
  });

  app.get(`${base}/versions`, async (request, reply) => {
    const page = parsePage(input(request));
    const { versions } = await changes.versions(mergeRequestRef(request));
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, versions.length));
    return versions.slice(page.offset, page.offset + page.limit).map(versionEntity);
  });

  app.get(`${base}/versions/:version_id`, async (request) => {
    const versionId = pathParam(request, 'version_id');
    if (!/^\d{1,15}$/.test(versionId)) throw new NotFoundError('Merge Request Diff');
    const { opened, version, commits, diffs } = await changes.version(mergeRequestRef(request), Number(versionId));
    return versionDetailEntity(version, commits, diffs, projectPath(opened.mergeRequest), ctx.urls, { unidiff: optionalBool(input(request), 'unidiff') === true });
  });

  // Not in GitLab's REST API (its web app has diff_for_path): one file of a version with its
  // patch, for a file that starts collapsed. `path` is the file's old or new path.
  app.get(`${base}/versions/:version_id/diffs`, async (request) => {
    const versionId = pathParam(request, 'version_id');
    if (!/^\d{1,15}$/.test(versionId)) throw new NotFoundError('Merge Request Diff');
    const params = input(request);
    const { diffs } = await changes.fileDiffs(mergeRequestRef(request), Number(versionId), requiredString(params, 'path'));
    return diffs.map((diff) => mergeRequestDiffEntity(diff, { unidiff: optionalBool(params, 'unidiff') === true }));
  });

  app.get(`${base}/raw_diffs`, async (request, reply) => {
    const patch = await changes.rawDiffs(mergeRequestRef(request));
    return reply.type('text/plain; charset=utf-8').send(patch);
  });

  app.get(`${base}/participants`, async (request) => {
    const { users } = await changes.participants(mergeRequestRef(request));
    return users.map((user) => userBasic(user, ctx.urls));
  });
}
