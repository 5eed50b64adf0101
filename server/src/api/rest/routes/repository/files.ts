import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../../platform/errors.js';
import { decodeContent, rawContentType } from '../../../../domains/repository/file-rules.js';
import type { FileWriteInput } from '../../../../domains/repository/files.service.js';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { fileEntity, fileHeaders, treeEntryEntity } from '../../entities/files.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { oneOf, optionalBool, optionalString, requiredString, type Params } from '../../params.js';
import { keysetLink, keysetTreePage } from './input.js';

/** Raw files are user content served from our origin: plain text or bytes, never a page a browser runs. */
const RAW_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  'cache-control': 'no-cache',
} as const;

function writeInput(params: Params, withContent: boolean): FileWriteInput {
  const raw = optionalString(params, 'content');
  if (withContent && raw === undefined) throw ValidationError.missing('content');
  const encoding = oneOf(params, 'encoding', ['text', 'base64'] as const, 'text');
  return {
    branch: requiredString(params, 'branch'),
    startBranch: optionalString(params, 'start_branch') || undefined,
    message: requiredString(params, 'commit_message'),
    content: withContent ? decodeContent(raw!, encoding) : undefined,
    authorName: optionalString(params, 'author_name') || undefined,
    authorEmail: optionalString(params, 'author_email') || undefined,
    executeFilemode: optionalBool(params, 'execute_filemode'),
    lastCommitId: optionalString(params, 'last_commit_id') || undefined,
  };
}

/** Repository tree and files: doc/api/repositories.md, doc/api/repository_files.md. */
export function fileRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { files } = ctx.services;
  const base = '/projects/:id/repository/files/:file_path';
  const id = (request: FastifyRequest) => pathParam(request, 'id');
  const filePath = (request: FastifyRequest) => pathParam(request, 'file_path');

  app.get('/projects/:id/repository/tree', async (request, reply) => {
    const params = input(request);
    const { project: _, entries } = await files.tree(request.actor, id(request), {
      ref: optionalString(params, 'ref') || undefined,
      path: optionalString(params, 'path') || undefined,
      recursive: optionalBool(params, 'recursive'),
    });
    const page = parsePage(params);
    if (params.pagination === 'keyset') {
      const { items, nextToken } = keysetTreePage(entries, optionalString(params, 'page_token'), page.perPage);
      if (nextToken) reply.header('link', keysetLink(requestUrl(request, ctx.externalUrl), page.perPage, nextToken));
      return items.map(treeEntryEntity);
    }
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, entries.length));
    return entries.slice(page.offset, page.offset + page.limit).map(treeEntryEntity);
  });

  // HEAD before GET: Fastify then keeps this handler instead of deriving one from GET.
  app.head(base, async (request, reply) => {
    const { file } = await files.read(request.actor, id(request), filePath(request), requiredString(input(request), 'ref'));
    return reply.headers(fileHeaders(file)).type('application/json').send();
  });

  app.get(base, async (request, reply) => {
    const { file } = await files.read(request.actor, id(request), filePath(request), requiredString(input(request), 'ref'));
    reply.headers(fileHeaders(file));
    return fileEntity(file);
  });

  app.get(`${base}/raw`, async (request, reply) => {
    const { file } = await files.read(request.actor, id(request), filePath(request), optionalString(input(request), 'ref') || undefined);
    return reply
      .headers({ ...fileHeaders(file), ...RAW_HEADERS, 'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.file_name)}` })
      .type(rawContentType(file.content))
      .send(file.content);
  });

  app.post(base, async (request, reply) => {
    const params = input(request);
    await files.create(signedIn(request), id(request), filePath(request), writeInput(params, true));
    return reply.status(201).send({ file_path: filePath(request), branch: requiredString(params, 'branch') });
  });

  app.put(base, async (request) => {
    const params = input(request);
    await files.update(signedIn(request), id(request), filePath(request), writeInput(params, true));
    return { file_path: filePath(request), branch: requiredString(params, 'branch') };
  });

  app.delete(base, async (request, reply) => {
    await files.remove(signedIn(request), id(request), filePath(request), writeInput(input(request), false));
    return reply.status(204).send();
  });
}
