import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { encodeId } from '../../lib/api-client';
import { createBatcher } from './batcher';

/**
 * Markdown rendered by the server for the reader: references link only what they may see,
 * and the server's allow-list sanitizer has already run on the HTML it returns.
 *
 * Texts rendered in a project go through the web app's batch endpoint,
 * `POST /-/projects/:id/markdown` (server/src/api/web/markdown.routes.ts): every body a render
 * mounts travels in one request, so a page of notes costs one round trip and one lookup of its
 * references rather than one of each per note. Without a project, GitLab's `POST /markdown`.
 */
/** The batch endpoint's limits (server/src/markdown/markdown.service.ts), with room for JSON escapes. */
const BATCH_MAX_TEXTS = 100;
const BATCH_MAX_BYTES = 1_500_000;

const batcher = createBatcher({
  maxTexts: BATCH_MAX_TEXTS,
  maxBytes: BATCH_MAX_BYTES,
  send: (project, texts) => api.post<{ html: string[] }>(`/-/projects/${encodeId(project)}/markdown`, { body: { texts } }).then((result) => result.html),
});

/** `project`: the id or full path in which `!1` resolves. */
export const renderedMarkdownQuery = (text: string, project: number | string | undefined) =>
  queryOptions({
    queryKey: ['markdown', project ?? null, text] as const,
    // The signal is left alone on purpose: a body scrolled out of view before its batch answers
    // keeps its rendering in the cache for when it scrolls back (the batch goes anyway).
    queryFn: () =>
      project === undefined
        ? api.post<{ html: string }>('/markdown', { body: { text, gfm: true } }).then((result) => result.html)
        : batcher.load(String(project), text),
    // A rendering only changes when a referenced object does; keep it for the session.
    staleTime: 5 * 60_000,
  });

/**
 * A repository file's Markdown (a README at `ref` in directory `dir`): its relative links and
 * images point into the repository, as GitLab renders them. One text, outside the batch.
 * `format: 'asciidoc'` renders a README.adoc with the server's Asciidoctor and sanitizer.
 */
export const repositoryMarkdownQuery = (project: number, text: string, ref: string, dir: string, format: 'markdown' | 'asciidoc' = 'markdown') =>
  queryOptions({
    queryKey: ['markdown', project, 'repository', ref, dir, text, format] as const,
    queryFn: ({ signal }) =>
      api
        .post<{ html: string[] }>(`/-/projects/${project}/markdown`, { signal, body: { texts: [text], ref, path: dir, ...(format === 'asciidoc' ? { format } : {}) } })
        .then((result) => result.html[0] ?? ''),
    staleTime: 5 * 60_000,
  });

