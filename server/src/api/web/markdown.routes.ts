import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import type { ProjectsService } from '../../domains/projects/projects.service.js';
import { MAX_BATCH_BYTES, MAX_BATCH_TEXTS, MAX_MARKDOWN_BYTES, type MarkdownService } from '../../markdown/markdown.service.js';
import { ValidationError } from '../../platform/errors.js';

/**
 * `POST /-/projects/:id/markdown` with `{"texts": [...]}`: many Markdown texts rendered for the
 * caller in one project, answered as `{"html": [...]}` in the same order. The web app's notes
 * ask for their bodies through it (one request per page of notes instead of one per note, and
 * one lookup of the references of them all). Each text renders exactly as GitLab's
 * `POST /markdown` with `gfm` and this `project` renders it (that endpoint stays as it is):
 * references link only what the caller may see; a project the caller cannot see is a 404.
 * Web-only, with the API's authentication (sessions need the CSRF header; tokens need `api`).
 * `format: "asciidoc"` renders the texts as AsciiDoc instead (a README.adoc on the project page).
 */
export function markdownBatchRoutes(app: FastifyInstance, deps: { authenticate(request: FastifyRequest): Promise<Actor>; projects: Pick<ProjectsService, 'find'>; markdown: MarkdownService }): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  app.post('/-/projects/:id/markdown', async (request) => {
    const texts = batchTexts(request.body);
    const repository = repositoryFile(request.body);
    const format = documentFormat(request.body);
    const project = await deps.projects.find(request.actor, (request.params as { id: string }).id);
    if (format === 'asciidoc') return { html: await Promise.all(texts.map((text) => deps.markdown.renderAsciidoc(text, { project, repository }))) };
    return { html: await deps.markdown.renderMany(request.actor, texts, { project, repository }) };
  });
}

/** `format`: `markdown` (the default) or `asciidoc` (a README.adoc, rendered by Asciidoctor and the same sanitizer). */
export function documentFormat(body: unknown): 'markdown' | 'asciidoc' {
  const { format } = (body && typeof body === 'object' ? body : {}) as { format?: unknown };
  if (format === undefined || format === 'markdown') return 'markdown';
  if (format === 'asciidoc') return 'asciidoc';
  throw ValidationError.field('format', 'does not have a valid value');
}

/**
 * `ref` and `path` (the rendered file's directory) name a repository file, e.g. a README: its
 * relative links and images then point into the repository at that ref, as GitLab renders them.
 */
export function repositoryFile(body: unknown): { ref: string; dir: string } | undefined {
  const { ref, path } = (body && typeof body === 'object' ? body : {}) as { ref?: unknown; path?: unknown };
  if (ref === undefined) return undefined;
  if (typeof ref !== 'string' || ref === '' || /[\0\n]/.test(ref)) throw ValidationError.field('ref', 'is invalid');
  if (path !== undefined && (typeof path !== 'string' || path.includes('\0'))) throw ValidationError.field('path', 'is invalid');
  return { ref, dir: typeof path === 'string' ? path.replace(/^\/+|\/+$/g, '') : '' };
}

/** The `texts` of a batch: 1 to MAX_BATCH_TEXTS strings, each and all within their byte limits. */
export function batchTexts(body: unknown): string[] {
  const texts = body && typeof body === 'object' ? (body as { texts?: unknown }).texts : undefined;
  if (texts === undefined) throw ValidationError.missing('texts');
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((text) => typeof text === 'string')) throw ValidationError.field('texts', 'must be a list of texts');
  if (texts.length > MAX_BATCH_TEXTS) throw ValidationError.field('texts', `must not list more than ${MAX_BATCH_TEXTS} texts`);
  let total = 0;
  for (const text of texts as string[]) {
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_MARKDOWN_BYTES) throw ValidationError.field('texts', 'has a text that is too long');
    total += bytes;
  }
  if (total > MAX_BATCH_BYTES) throw ValidationError.field('texts', 'are too long together');
  return texts as string[];
}
