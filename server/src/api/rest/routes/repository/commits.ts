import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseCommitActions } from '../../../../domains/repository/commit-action-input.js';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { commitDetail, commitWithStats, diffEntity } from '../../entities/commits.js';
import { keysetlessHeaders, paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { oneOf, optionalBool, optionalString, requiredString } from '../../params.js';
import { optionalDate } from './input.js';

/** Commits: doc/api/commits.md (compare is in compare.ts). */
export function commitRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { commits } = ctx.services;
  const base = '/projects/:id/repository/commits';
  const id = (request: FastifyRequest) => pathParam(request, 'id');

  app.get(base, async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const result = await commits.list(request.actor, id(request), {
      refName: optionalString(params, 'ref_name') || undefined,
      all: optionalBool(params, 'all'),
      path: optionalString(params, 'path') || undefined,
      since: optionalDate(params, 'since'),
      until: optionalDate(params, 'until'),
      firstParent: optionalBool(params, 'first_parent'),
      author: optionalString(params, 'author') || undefined,
      order: oneOf(params, 'order', ['default', 'topo'] as const, 'default'),
      withStats: optionalBool(params, 'with_stats'),
      limit: page.limit,
      offset: page.offset,
    });
    // git cannot count cheaply: no X-Total, a next page when one more commit exists (as GitLab).
    reply.headers(keysetlessHeaders(requestUrl(request, ctx.externalUrl), page, result.hasMore));
    return result.commits.map(({ commit, stats }) => commitWithStats(commit, stats, result.project, ctx.urls));
  });

  app.post(base, async (request, reply) => {
    const params = input(request);
    const actor = signedIn(request);
    const branch = requiredString(params, 'branch');
    const message = requiredString(params, 'commit_message');
    const result = await commits.create(actor, id(request), {
      branch,
      message,
      ...parseCommitActions(params.actions),
      startBranch: optionalString(params, 'start_branch') || undefined,
      startSha: optionalString(params, 'start_sha') || undefined,
      authorName: optionalString(params, 'author_name') || undefined,
      authorEmail: optionalString(params, 'author_email') || undefined,
      force: optionalBool(params, 'force') === true,
      stats: optionalBool(params, 'stats') !== false,
    });
    return reply.status(201).send(commitDetail(result.commit, result.stats, result.project, ctx.urls));
  });

  app.get(`${base}/:sha`, async (request) => {
    const result = await commits.show(request.actor, id(request), pathParam(request, 'sha'), { stats: optionalBool(input(request), 'stats') !== false });
    return commitDetail(result.commit, result.stats, result.project, ctx.urls);
  });

  app.get(`${base}/:sha/diff`, async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const { diffs } = await commits.diff(request.actor, id(request), pathParam(request, 'sha'));
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, diffs.length));
    return diffs.slice(page.offset, page.offset + page.limit).map(diffEntity);
  });
}
