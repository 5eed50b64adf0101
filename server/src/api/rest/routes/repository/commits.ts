import type { FastifyInstance } from 'fastify';
import { parseCommitActions } from '../../../../domains/repository/commit-action-input.js';
import { signedIn, type RestContext } from '../../context.js';
import { commitDetail, commitWithStats, diffEntity } from '../../entities/commits.js';
import { keysetlessHeaders, paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { Any, Bool, DateTime, Enum, Input, NamespacedRef, Optional, Pagination, routes, Str, Text } from '../../input/route-kit.js';

/** Commits: doc/api/commits.md (compare is in compare.ts). */
export function commitRoutes(app: FastifyInstance, ctx: RestContext<'commits'>): void {
  const { commits } = ctx.services;
  const r = routes(app);
  const base = '/projects/:id/repository/commits';

  const CommitList = Input({
    id: NamespacedRef(),
    ...Pagination,
    ref_name: Optional(Text()),
    all: Optional(Bool()),
    path: Optional(Text()),
    since: Optional(DateTime()),
    until: Optional(DateTime()),
    first_parent: Optional(Bool()),
    author: Optional(Text()),
    order: Optional(Enum(['default', 'topo'] as const)),
    with_stats: Optional(Bool()),
  });
  r.get(base, CommitList, async (params, request, reply) => {
    const page = parsePage(params);
    const result = await commits.list(request.actor, params.id, {
      refName: params.ref_name,
      all: params.all,
      path: params.path,
      since: params.since,
      until: params.until,
      firstParent: params.first_parent,
      author: params.author,
      order: params.order ?? 'default',
      withStats: params.with_stats,
      limit: page.limit,
      offset: page.offset,
    });
    // git cannot count cheaply: no X-Total, a next page when one more commit exists (as GitLab).
    reply.headers(keysetlessHeaders(requestUrl(request, ctx.externalUrl), page, result.hasMore));
    return result.commits.map(({ commit, stats }) => commitWithStats(commit, stats, result.project, ctx.urls));
  });

  const CommitCreate = Input({
    id: NamespacedRef(),
    branch: Str(),
    commit_message: Str(),
    // Each action's fields and their rules (action names, encodings, paths) are the commit action parser's.
    actions: Optional(Any({ description: 'array of {action, file_path, previous_path, content, encoding, last_commit_id, execute_filemode}' })),
    start_branch: Optional(Text()),
    start_sha: Optional(Text()),
    author_name: Optional(Text()),
    author_email: Optional(Text()),
    force: Optional(Bool()),
    stats: Optional(Bool()),
  });
  r.post(base, CommitCreate, async (params, request, reply) => {
    const result = await commits.create(signedIn(request), params.id, {
      branch: params.branch,
      message: params.commit_message,
      ...parseCommitActions(params.actions),
      startBranch: params.start_branch,
      startSha: params.start_sha,
      authorName: params.author_name,
      authorEmail: params.author_email,
      force: params.force === true,
      stats: params.stats !== false,
    });
    return reply.status(201).send(commitDetail(result.commit, result.stats, result.project, ctx.urls));
  });

  r.get(`${base}/:sha`, Input({ id: NamespacedRef(), sha: Str(), stats: Optional(Bool()) }), async (params, request) => {
    const result = await commits.show(request.actor, params.id, params.sha, { stats: params.stats !== false });
    return commitDetail(result.commit, result.stats, result.project, ctx.urls);
  });

  r.get(`${base}/:sha/diff`, Input({ id: NamespacedRef(), sha: Str(), ...Pagination }), async (params, request, reply) => {
    const page = parsePage(params);
    const { diffs } = await commits.diff(request.actor, params.id, params.sha);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, diffs.length));
    return diffs.slice(page.offset, page.offset + page.limit).map(diffEntity);
  });
}
