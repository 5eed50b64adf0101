import type { FastifyInstance } from 'fastify';
import type { RestContext } from '../../context.js';
import { commitEntity } from '../../entities/commits.js';
import { mergeRequestDiffEntity, versionDetailEntity, versionEntity } from '../../entities/merge-request-diffs.js';
import { userBasic } from '../../entities/users.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { Bool, Input, Optional, Pagination, PathId, routes, Str } from '../../input/route-kit.js';
import { MergeRequestPath } from './input.js';
import { mergeRequestRef, renderMergeRequest } from './merge-requests.js';

const projectPath = (mr: { target_project_id: number; target_full_path: string }) => ({ id: mr.target_project_id, full_path: mr.target_full_path });

/** What a merge request changes: commits, diffs, versions, raw patch, participants. */
export function mergeRequestChangeRoutes(app: FastifyInstance, ctx: RestContext<'mergeRequestChanges' | 'mergeRequestPipelines' | 'mergeRequestViews' | 'mergeRequests' | 'pipelines'>): void {
  const { mergeRequestChanges: changes } = ctx.services;
  const r = routes(app);
  const base = '/projects/:id/merge_requests/:iid';
  const Paged = Input({ ...MergeRequestPath, ...Pagination });
  const Unidiff = { unidiff: Optional(Bool()) };
  const Version = { ...MergeRequestPath, version_id: PathId('Merge Request Diff') };

  r.get(`${base}/commits`, Paged, async (params, request, reply) => {
    const page = parsePage(params);
    const { opened, commits, total } = await changes.commits(mergeRequestRef(request, params), page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, total));
    return commits.map((commit) => commitEntity(commit, projectPath(opened.mergeRequest), ctx.urls));
  });

  // Deprecated in GitLab 15.7 but still used by clients: the merge request plus every diff.
  r.get(`${base}/changes`, Input({ ...MergeRequestPath, ...Unidiff, access_raw_diffs: Optional(Bool()) }), async (params, request) => {
    const unidiff = params.unidiff === true;
    const { opened, diffs, overflow } = await changes.changes(mergeRequestRef(request, params));
    return { ...(await renderMergeRequest(ctx, request.actor, opened)), changes: diffs.map((diff) => mergeRequestDiffEntity(diff, { unidiff })), overflow };
  });

  r.get(`${base}/diffs`, Input({ ...MergeRequestPath, ...Pagination, ...Unidiff }), async (params, request, reply) => {
    const page = parsePage(params);
    const { diffs, total } = await changes.diffs(mergeRequestRef(request, params), page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, total));
    return diffs.map((diff) => mergeRequestDiffEntity(diff, { unidiff: params.unidiff === true }));
  });

  r.get(`${base}/versions`, Paged, async (params, request, reply) => {
    const page = parsePage(params);
    const { versions } = await changes.versions(mergeRequestRef(request, params));
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, versions.length));
    return versions.slice(page.offset, page.offset + page.limit).map(versionEntity);
  });

  r.get(`${base}/versions/:version_id`, Input({ ...Version, ...Unidiff }), async (params, request) => {
    const { opened, version, commits, diffs } = await changes.version(mergeRequestRef(request, params), params.version_id);
    return versionDetailEntity(version, commits, diffs, projectPath(opened.mergeRequest), ctx.urls, { unidiff: params.unidiff === true });
  });

  // Not in GitLab's REST API (its web app has diff_for_path): one file of a version with its
  // patch, for a file that starts collapsed. `path` is the file's old or new path.
  r.get(`${base}/versions/:version_id/diffs`, Input({ ...Version, ...Unidiff, path: Str() }), async (params, request) => {
    const { diffs } = await changes.fileDiffs(mergeRequestRef(request, params), params.version_id, params.path);
    return diffs.map((diff) => mergeRequestDiffEntity(diff, { unidiff: params.unidiff === true }));
  });

  r.get(`${base}/raw_diffs`, Input(MergeRequestPath), async (params, request, reply) => {
    const patch = await changes.rawDiffs(mergeRequestRef(request, params));
    return reply.type('text/plain; charset=utf-8').send(patch);
  });

  r.get(`${base}/participants`, Input(MergeRequestPath), async (params, request) => {
    const { users } = await changes.participants(mergeRequestRef(request, params));
    return users.map((user) => userBasic(user, ctx.urls));
  });
}
