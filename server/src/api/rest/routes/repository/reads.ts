import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isArchiveFormat } from '../../../../git/archive.js';
import { rawContentType } from '../../../../domains/repository/file-rules.js';
import { NotFoundError, ValidationError } from '../../../../platform/errors.js';
import { input, pathParam, type RestContext } from '../../context.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { oneOf, optionalInt, optionalString, requiredString, type Params } from '../../params.js';

/** Raw blobs are user content served from our origin: never a page a browser runs. */
const RAW_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox", 'cache-control': 'no-cache' } as const;

/** GitLab's `range[start]` / `range[end]`: both positive integers, start ≤ end, or no range at all. */
export function blameRange(params: Params): { start: number; end: number } | undefined {
  const raw = params.range;
  if (raw === undefined) return undefined;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('400 (Bad request) "range" is invalid');
  const range = raw as Params;
  const start = optionalInt(range, 'start');
  const end = optionalInt(range, 'end');
  if (start === undefined) throw ValidationError.missing('range[start]');
  if (end === undefined) throw ValidationError.missing('range[end]');
  if (start < 1) throw new ValidationError('400 (Bad request) "range[start]" does not have a valid value');
  if (end < 1) throw new ValidationError('400 (Bad request) "range[end]" does not have a valid value');
  if (start > end) throw new ValidationError('400 (Bad request) "range[start]" must be less than or equal to "range[end]"');
  return { start, end };
}

/** Archives, blame, blobs by SHA, the refs containing a commit, contributors (doc/api/repositories.md, commits.md, repository_files.md). */
export function repositoryReadRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { repositoryReads: reads } = ctx.services;
  const id = (request: FastifyRequest) => pathParam(request, 'id');

  async function sendArchive(request: FastifyRequest, reply: FastifyReply, format: string) {
    if (!isArchiveFormat(format)) throw new NotFoundError();
    const params = input(request);
    const archive = await reads.archive(request.actor, id(request), { sha: optionalString(params, 'sha'), path: optionalString(params, 'path'), format });
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

  app.get('/projects/:id/repository/archive', async (request, reply) => sendArchive(request, reply, optionalString(input(request), 'format') || 'tar.gz'));
  app.get('/projects/:id/repository/archive.:format', async (request, reply) => sendArchive(request, reply, pathParam(request, 'format')));

  app.get('/projects/:id/repository/files/:file_path/blame', async (request) => {
    const params = input(request);
    const { ranges } = await reads.blame(request.actor, id(request), pathParam(request, 'file_path'), { ref: requiredString(params, 'ref'), range: blameRange(params) });
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

  app.get('/projects/:id/repository/blobs/:sha', async (request) => {
    const blob = await reads.blob(request.actor, id(request), pathParam(request, 'sha'));
    return { size: blob.content.length, encoding: 'base64', content: blob.content.toString('base64'), sha: blob.sha };
  });

  app.get('/projects/:id/repository/blobs/:sha/raw', async (request, reply) => {
    const blob = await reads.blob(request.actor, id(request), pathParam(request, 'sha'));
    return reply.headers(RAW_HEADERS).type(rawContentType(blob.content)).send(blob.content);
  });

  app.get('/projects/:id/repository/commits/:sha/refs', async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const refs = await reads.commitRefs(request.actor, id(request), pathParam(request, 'sha'), oneOf(params, 'type', ['branch', 'tag', 'all'] as const, 'all'));
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, refs.length));
    return refs.slice(page.offset, page.offset + page.limit);
  });

  app.get('/projects/:id/repository/contributors', async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const list = await reads.contributors(request.actor, id(request), {
      ref: optionalString(params, 'ref') || undefined,
      orderBy: oneOf(params, 'order_by', ['name', 'email', 'commits'] as const, 'commits'),
      sort: oneOf(params, 'sort', ['asc', 'desc'] as const, 'asc'),
    });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, list.length));
    // GitLab no longer computes line counts for contributors: additions and deletions are 0.
    return list.slice(page.offset, page.offset + page.limit).map((c) => ({ name: c.name, email: c.email, commits: c.commits, additions: 0, deletions: 0 }));
  });
}
