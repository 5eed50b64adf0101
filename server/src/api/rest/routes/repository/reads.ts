import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isArchiveFormat } from '../../../../git/archive.js';
import { rawContentType } from '../../../../domains/repository/file-rules.js';
import { NotFoundError, ValidationError } from '../../../../platform/errors.js';
import type { RestContext } from '../../context.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { Enum, Input, Int, NamespacedRef, Obj, Optional, Pagination, routes, Str, Text } from '../../input/route-kit.js';

/** Raw blobs are user content served from our origin: never a page a browser runs. */
const RAW_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox", 'cache-control': 'no-cache' } as const;

/** GitLab's `range[start]` / `range[end]`: both positive integers, start ≤ end, or no range at all. */
const BlameRange = Obj({ start: Int({ minimum: 1 }), end: Int({ minimum: 1 }) });

/** Archives, blame, blobs by SHA, the refs containing a commit, contributors (doc/api/repositories.md, commits.md, repository_files.md). */
export function repositoryReadRoutes(app: FastifyInstance, ctx: RestContext<'repositoryReads'>): void {
  const { repositoryReads: reads } = ctx.services;
  const r = routes(app);
  const Archive = { id: NamespacedRef(), sha: Optional(Str()), path: Optional(Str()) };

  async function sendArchive(request: FastifyRequest, reply: FastifyReply, params: { id: string; sha?: string; path?: string }, format: string) {
    if (!isArchiveFormat(format)) throw new NotFoundError();
    const archive = await reads.archive(request.actor, params.id, { sha: params.sha, path: params.path, format });
    const child = archive.start();
    const stderr: Buffer[] = [];
    child.stderr!.on('data', (chunk: Buffer) => stderr.length < 16 && stderr.push(chunk));
    child.on('close', (code) => code && request.log.warn({ code, stderr: Buffer.concat(stderr).toString().slice(0, 2000) }, 'git archive failed'));
    reply.raw.on('close', () => child.exitCode === null && child.kill('SIGTERM'));
    // Workhorse's archive headers.
    return reply
      .headers({ 'content-disposition': `attachment; filename="${archive.filename}"`, 'content-transfer-encoding': 'binary', 'cache-control': 'private' })
      .type('application/octet-stream')
      .send(child.stdout);
  }

  r.get('/projects/:id/repository/archive', Input({ ...Archive, format: Optional(Text()) }), async (params, request, reply) => sendArchive(request, reply, params, params.format ?? 'tar.gz'));
  r.get('/projects/:id/repository/archive.:format', Input({ ...Archive, format: Str() }), async (params, request, reply) => sendArchive(request, reply, params, params.format));

  const Blame = Input({ id: NamespacedRef(), file_path: Str(), ref: Str(), range: Optional(BlameRange) });
  r.get('/projects/:id/repository/files/:file_path/blame', Blame, async (params, request) => {
    const range = params.range;
    if (range && range.start > range.end) throw new ValidationError('400 (Bad request) "range[start]" must be less than or equal to "range[end]"');
    const { ranges } = await reads.blame(request.actor, params.id, params.file_path, { ref: params.ref, range });
    return ranges.map(({ commit, lines }) => ({
      commit: {
        id: commit.id,
        parent_ids: commit.parent_ids,
        message: commit.message,
        authored_date: commit.authored_date.toISOString(),
        author_name: commit.author_name,
        author_email: commit.author_email,
        committed_date: commit.committed_date.toISOString(),
        committer_name: commit.committer_name,
        committer_email: commit.committer_email,
      },
      lines,
    }));
  });

  const Blob = Input({ id: NamespacedRef(), sha: Str() });
  r.get('/projects/:id/repository/blobs/:sha', Blob, async (params, request) => {
    const blob = await reads.blob(request.actor, params.id, params.sha);
    return { size: blob.content.length, encoding: 'base64', content: blob.content.toString('base64'), sha: blob.sha };
  });

  r.get('/projects/:id/repository/blobs/:sha/raw', Blob, async (params, request, reply) => {
    const blob = await reads.blob(request.actor, params.id, params.sha);
    return reply.headers(RAW_HEADERS).type(rawContentType(blob.content)).send(blob.content);
  });

  r.get('/projects/:id/repository/commits/:sha/refs', Input({ id: NamespacedRef(), sha: Str(), ...Pagination, type: Optional(Enum(['branch', 'tag', 'all'] as const)) }), async (params, request, reply) => {
    const page = parsePage(params);
    const refs = await reads.commitRefs(request.actor, params.id, params.sha, params.type ?? 'all');
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, refs.length));
    return refs.slice(page.offset, page.offset + page.limit);
  });

  const Contributors = Input({
    id: NamespacedRef(),
    ...Pagination,
    ref: Optional(Text()),
    order_by: Optional(Enum(['name', 'email', 'commits'] as const)),
    sort: Optional(Enum(['asc', 'desc'] as const)),
  });
  r.get('/projects/:id/repository/contributors', Contributors, async (params, request, reply) => {
    const page = parsePage(params);
    const list = await reads.contributors(request.actor, params.id, { ref: params.ref, orderBy: params.order_by ?? 'commits', sort: params.sort ?? 'asc' });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, list.length));
    // GitLab no longer computes line counts for contributors: additions and deletions are 0.
    return list.slice(page.offset, page.offset + page.limit).map((c) => ({ name: c.name, email: c.email, commits: c.commits, additions: 0, deletions: 0 }));
  });
}
