import type { MarkdownIt, Token } from 'markdown-it';
import type { Actor } from '../auth/actor.js';
import type { Project } from '../domains/projects/project.js';
import { limitProjects, referenceKey, type ReferenceResolver, type ResolvedReference } from './reference-resolver.js';
import { scanReferences, type ReferenceCandidate } from './references.js';
import { isSafeColor, splitScoped, textColorFor } from '../domains/labels/label-rules.js';
import { resolveRepositoryUrl } from './relative-links.js';

/** A file of the repository being rendered (a README): its relative links and images resolve in `dir` at `ref`. */
export interface RepositoryFileContext {
  ref: string;
  dir: string;
}

/** GitLab refuses to render more than this (its `POST /markdown` limit is similar in spirit). */
export const MAX_MARKDOWN_BYTES = 1_000_000;

/**
 * One batch (the web app's notes, rendered together): at most this many texts and bytes in all,
 * and at most this many projects looked up for the whole batch (each text keeps its own limit).
 */
export const MAX_BATCH_TEXTS = 100;
export const MAX_BATCH_BYTES = 2_000_000;
const MAX_BATCH_PROJECTS = 100;

interface Renderer {
  md: MarkdownIt;
  sanitize: (html: string) => string;
}

/**
 * Renders GitLab Flavored Markdown for one reader: parse, find references in text (never
 * in code or inside links), resolve them with the reader's permissions, link the visible
 * ones, rewrite `/uploads/…` to the project's uploads, render, then sanitize. The
 * sanitizer runs last and alone decides what HTML survives.
 */
export function createMarkdownService(deps: { references: ReferenceResolver }) {
  // markdown-it with every highlight.js language, and the sanitizer, take a tenth of a start
  // to load: they load on the first render (or the server's warm-up after it listens).
  let loading: Promise<Renderer> | undefined;
  const renderer = () =>
    (loading ??= Promise.all([import('./markdown-it.js'), import('./sanitize.js')]).then(([parser, sanitizer]) => ({
      md: parser.createMarkdownIt(),
      sanitize: sanitizer.sanitizeRenderedHtml,
    })));

  const parse = (md: MarkdownIt, text: string, references: boolean | undefined) => {
    const tokens = md.parse(text, {});
    return { tokens, candidates: references === false ? [] : collectCandidates(tokens) };
  };
  const finish = ({ md, sanitize }: Renderer, tokens: Token[], resolved: Map<string, ResolvedReference>, project: Project | null, repository?: RepositoryFileContext) => {
    linkReferences(tokens, resolved, project?.full_path ?? null);
    if (project) rewriteUploads(tokens, project.full_path);
    if (project && repository) rewriteRelative(tokens, { projectPath: project.full_path, ...repository });
    return sanitize(md.renderer.render(tokens, md.options, {}));
  };

  return {
    /** `references: false` is GitLab's `gfm=false`: plain CommonMark, nothing looked up. */
    async render(actor: Actor, text: string, context: { project: Project | null; references?: boolean; repository?: RepositoryFileContext }): Promise<string> {
      const loaded = await renderer();
      const { tokens, candidates } = parse(loaded.md, text, context.references);
      const resolved = candidates.length > 0 ? await deps.references.resolve(actor, candidates, context.project) : new Map();
      return finish(loaded, tokens, resolved, context.project, context.repository);
    },

    /**
     * Many texts for one reader in one project, as `render` would give each of them, with one
     * lookup of the references of them all (a page of notes names the same users and merge
     * requests again and again). Each text keeps its own limit of projects looked up.
     */
    async renderMany(actor: Actor, texts: readonly string[], context: { project: Project | null; repository?: RepositoryFileContext }): Promise<string[]> {
      const contextPath = context.project?.full_path ?? null;
      const loaded = await renderer();
      const parsed = texts.map((text) => parse(loaded.md, text, true));
      const candidates = parsed.flatMap((document) => limitProjects(document.candidates, contextPath));
      const resolved = candidates.length > 0 ? await deps.references.resolve(actor, candidates, context.project, { maxProjects: MAX_BATCH_PROJECTS }) : new Map();
      return parsed.map((document) => finish(loaded, document.tokens, resolved, context.project, context.repository));
    },

    /**
     * An AsciiDoc document (a README.adoc) for the project page: Asciidoctor in secure mode,
     * relative links into the repository, then the same sanitizer (asciidoc.ts).
     */
    async renderAsciidoc(text: string, context: { project: Project; repository?: RepositoryFileContext }): Promise<string> {
      const [{ sanitize }, asciidoc] = await Promise.all([renderer(), import('./asciidoc.js')]);
      return asciidoc.renderAsciidoc(text, sanitize, context.repository ? { projectPath: context.project.full_path, ...context.repository } : undefined);
    },

    /** Loads the renderer ahead of the first render. */
    async warmUp(): Promise<void> {
      await renderer();
    },
  };
}

export type MarkdownService = ReturnType<typeof createMarkdownService>;

/** Calls `visit` for each text token outside links, with the inline token's children array. */
function eachPlainText(tokens: Token[], visit: (children: Token[], index: number) => void): void {
  for (const block of tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    let linkDepth = 0;
    // Backwards, so that `visit` may splice replacements into the array.
    const children = block.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const token = children[i]!;
      if (token.type === 'link_close') linkDepth++;
      else if (token.type === 'link_open') linkDepth--;
      else if (token.type === 'text' && linkDepth === 0) visit(children, i);
    }
  }
}

function collectCandidates(tokens: Token[]): ReferenceCandidate[] {
  const candidates: ReferenceCandidate[] = [];
  eachPlainText(tokens, (children, i) => candidates.push(...scanReferences(children[i]!.content)));
  return candidates;
}

function linkReferences(tokens: Token[], resolved: Map<string, ResolvedReference>, contextPath: string | null): void {
  if (resolved.size === 0 || tokens.length === 0) return;
  // markdown-it exports its Token class only as a type; every token is an instance of it.
  const Token = tokens[0]!.constructor as typeof import('markdown-it').Token;
  const text = (content: string) => Object.assign(new Token('text', '', 0), { content });
  eachPlainText(tokens, (children, i) => {
    const content = children[i]!.content;
    const replacement: Token[] = [];
    let at = 0;
    for (const candidate of scanReferences(content)) {
      const key = referenceKey(candidate, contextPath);
      const reference = key ? resolved.get(key) : undefined;
      if (!reference) continue;
      if (candidate.start > at) replacement.push(text(content.slice(at, candidate.start)));
      if (reference.kind === 'label') replacement.push(...labelTokens(Token, reference));
      else {
        // a milestone reads as its title (`%3` shows `%v1.0`), as GitLab links it
        const shown = reference.kind === 'milestone' ? milestoneText(reference.title) : candidate.raw;
        replacement.push(linkOpen(Token, reference), text(shown), new Token('link_close', 'a', -1));
      }
      at = candidate.end;
    }
    if (replacement.length === 0) return;
    if (at < content.length) replacement.push(text(content.slice(at)));
    children.splice(i, 1, ...replacement);
  });
}

function linkOpen(TokenClass: typeof Token, reference: ResolvedReference): Token {
  const open = new TokenClass('link_open', 'a', 1);
  open.attrSet('href', reference.href);
  open.attrSet('title', reference.title);
  if (reference.kind === 'user') {
    open.attrSet('class', 'gfm gfm-project_member');
    open.attrSet('data-reference-type', 'user');
    open.attrSet('data-username', reference.username);
  } else if (reference.kind === 'milestone') {
    open.attrSet('class', 'gfm gfm-milestone');
    open.attrSet('data-reference-type', 'milestone');
    open.attrSet('data-project-path', reference.projectPath);
  } else if (reference.kind === 'merge_request') {
    open.attrSet('class', 'gfm gfm-merge_request');
    open.attrSet('data-reference-type', 'merge_request');
    open.attrSet('data-project-path', reference.projectPath);
    open.attrSet('data-iid', String(reference.iid));
  }
  return open;
}

/**
 * A label as GitLab draws it: `<span class="gl-label"><a class="gfm gfm-label" …><span
 * class="gl-label-text" style="background-color: #…; color: #…">name</span></a></span>`; a
 * scoped label is its key on the colour and its value beside it. The colour comes from the
 * database but is used only when it is exactly `#RGB` / `#RRGGBB`, and the sanitizer allows
 * nothing else in those two style properties.
 */
function labelTokens(TokenClass: typeof Token, reference: Extract<ResolvedReference, { kind: 'label' }>): Token[] {
  const html = (content: string) => Object.assign(new TokenClass('html_inline', '', 0), { content });
  const text = (content: string) => Object.assign(new TokenClass('text', '', 0), { content });
  const color = isSafeColor(reference.color) ? reference.color : '#6699cc';
  const style = `background-color: ${color}; color: ${textColorFor(color)}`;
  const scoped = splitScoped(reference.name);
  const open = new TokenClass('link_open', 'a', 1);
  open.attrSet('href', reference.href);
  if (reference.title) open.attrSet('title', reference.title);
  open.attrSet('class', 'gfm gfm-label');
  open.attrSet('data-reference-type', 'label');
  open.attrSet('data-project-path', reference.projectPath);
  const inner = scoped
    ? [html(`<span class="gl-label-text" style="${style}">`), text(scoped.key), html('</span><span class="gl-label-text-scoped">'), text(scoped.value), html('</span>')]
    : [html(`<span class="gl-label-text" style="${style}">`), text(reference.name), html('</span>')];
  return [html(`<span class="gl-label${scoped ? ' gl-label-scoped' : ''}">`), open, ...inner, new TokenClass('link_close', 'a', -1), html('</span>')];
}

const milestoneText = (title: string) => (/^[A-Za-z0-9_\-.]+$/.test(title) ? `%${title}` : `%"${title}"`);

/** Relative links and images of a repository file point into the repository (relative-links.ts). */
function rewriteRelative(tokens: Token[], context: Parameters<typeof resolveRepositoryUrl>[2]): void {
  const visit = (list: Token[]) => {
    for (const token of list) {
      if (token.children) visit(token.children);
      const kind = token.type === 'link_open' ? 'link' : token.type === 'image' ? 'image' : null;
      if (!kind) continue;
      const attribute = kind === 'link' ? 'href' : 'src';
      const value = token.attrGet(attribute);
      const resolved = typeof value === 'string' ? resolveRepositoryUrl(value, kind, context) : null;
      if (resolved) token.attrSet(attribute, resolved);
    }
  };
  visit(tokens);
}

const UPLOAD = /^\/uploads\/[0-9a-f]{32}\/[^/]+$/;

/** `/uploads/<32 hex>/name` (what an upload returns) points into the project's uploads. */
function rewriteUploads(tokens: Token[], projectPath: string): void {
  const visit = (list: Token[]) => {
    for (const token of list) {
      if (token.children) visit(token.children);
      const attribute = token.type === 'link_open' ? 'href' : token.type === 'image' ? 'src' : null;
      const value = attribute ? token.attrGet(attribute) : null;
      if (attribute && typeof value === 'string' && UPLOAD.test(value)) token.attrSet(attribute, `/${projectPath}${value}`);
    }
  };
  visit(tokens);
}
