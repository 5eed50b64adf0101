import type { FastifyInstance } from 'fastify';
import { decodeContent, rawContentType } from '../../../../domains/repository/file-rules.js';
import type { FileWriteInput } from '../../../../domains/repository/files.service.js';
import { signedIn, type RestContext } from '../../context.js';
import { fileEntity, fileHeaders, treeEntryEntity } from '../../entities/files.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { BlankableStr, Bool, Enum, Input, NamespacedRef, Optional, Pagination, routes, Str, Text } from '../../input/route-kit.js';
import { keysetLink, keysetTreePage } from './tree-pages.js';

/** Raw files are user content served from our origin: plain text or bytes, never a page a browser runs. */
const RAW_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  'cache-control': 'no-cache',
} as const;

const FilePath = { id: NamespacedRef(), file_path: Str({ description: 'URL-encoded path of the file' }) };
const WriteFields = {
  ...FilePath,
  branch: Str(),
  start_branch: Optional(Text()),
  commit_message: Str(),
  encoding: Optional(Enum(['text', 'base64'] as const)),
  author_name: Optional(Text()),
  author_email: Optional(Text()),
  execute_filemode: Optional(Bool()),
  last_commit_id: Optional(Text()),
};
const FileWrite = Input({ ...WriteFields, content: BlankableStr() });
const FileDelete = Input(WriteFields);

function writeInput(params: { branch: string; start_branch?: string; commit_message: string; encoding?: 'text' | 'base64'; author_name?: string; author_email?: string; execute_filemode?: boolean; last_commit_id?: string; content?: string }): FileWriteInput {
  return {
    branch: params.branch,
    startBranch: params.start_branch,
    message: params.commit_message,
    content: params.content === undefined ? undefined : decodeContent(params.content, params.encoding ?? 'text'),
    authorName: params.author_name,
    authorEmail: params.author_email,
    executeFilemode: params.execute_filemode,
    lastCommitId: params.last_commit_id,
  };
}

/** Repository tree and files: doc/api/repositories.md, doc/api/repository_files.md. */
export function fileRoutes(app: FastifyInstance, ctx: RestContext<'files'>): void {
  const { files } = ctx.services;
  const r = routes(app);
  const base = '/projects/:id/repository/files/:file_path';

  const Tree = Input({ id: NamespacedRef(), ...Pagination, ref: Optional(Text()), path: Optional(Text()), recursive: Optional(Bool()), pagination: Optional(Str()), page_token: Optional(Str()) });
  r.get('/projects/:id/repository/tree', Tree, async (params, request, reply) => {
    const { entries } = await files.tree(request.actor, params.id, { ref: params.ref, path: params.path, recursive: params.recursive });
    const page = parsePage(params);
    if (params.pagination === 'keyset') {
      const { items, nextToken } = keysetTreePage(entries, params.page_token, page.perPage);
      if (nextToken) reply.header('link', keysetLink(requestUrl(request, ctx.externalUrl), page.perPage, nextToken));
      return items.map(treeEntryEntity);
    }
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, entries.length));
    return entries.slice(page.offset, page.offset + page.limit).map(treeEntryEntity);
  });

  const FileRead = Input({ ...FilePath, ref: Str() });
  // HEAD before GET: Fastify then keeps this handler instead of deriving one from GET.
  r.head(base, FileRead, async (params, request, reply) => {
    const { file } = await files.read(request.actor, params.id, params.file_path, params.ref);
    return reply.headers(fileHeaders(file)).type('application/json').send();
  });

  r.get(base, FileRead, async (params, request, reply) => {
    const { file } = await files.read(request.actor, params.id, params.file_path, params.ref);
    reply.headers(fileHeaders(file));
    return fileEntity(file);
  });

  r.get(`${base}/raw`, Input({ ...FilePath, ref: Optional(Text()) }), async (params, request, reply) => {
    const { file } = await files.read(request.actor, params.id, params.file_path, params.ref);
    return reply
      .headers({ ...fileHeaders(file), ...RAW_HEADERS, 'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.file_name)}` })
      .type(rawContentType(file.content))
      .send(file.content);
  });

  r.post(base, FileWrite, async (params, request, reply) => {
    await files.create(signedIn(request), params.id, params.file_path, writeInput(params));
    return reply.status(201).send({ file_path: params.file_path, branch: params.branch });
  });

  r.put(base, FileWrite, async (params, request) => {
    await files.update(signedIn(request), params.id, params.file_path, writeInput(params));
    return { file_path: params.file_path, branch: params.branch };
  });

  r.delete(base, FileDelete, async (params, request, reply) => {
    await files.remove(signedIn(request), params.id, params.file_path, writeInput(params));
    return reply.status(204).send();
  });
}
