/**
 * AsciiDoc READMEs (README.adoc, README.asciidoc), rendered as GitLab renders them: by
 * Asciidoctor in its `secure` mode (no includes, no files read, no attributes from the
 * environment), relative links and images pointing into the repository as in Markdown
 * (relative-links.ts), then the same allow-list sanitizer as every Markdown document, which alone
 * decides what HTML survives (raw passthrough blocks included).
 */
import { resolveRepositoryUrl, type RepositoryContext } from './relative-links.js';

/**
 * Asciidoctor's HTML quotes every attribute value with `"` and escapes the value, so an `href`
 * or `src` is the text between the quotes; the sanitizer runs afterwards on the result. No
 * part crosses a `<` or `>`, so a passthrough block full of unclosed tags costs linear time.
 */
const URL_ATTRIBUTE = /(<(a|img)\b[^<>]*?\s(href|src)=")([^"<>]*)"/g;

const unescapeAttribute = (value: string) => value.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Relative `href`s and `src`s of rendered HTML resolved in the repository (pure). */
export function rewriteRelativeHtml(html: string, context: RepositoryContext): string {
  return html.replace(URL_ATTRIBUTE, (whole, start: string, tag: string, attribute: string, value: string) => {
    const kind = tag === 'img' && attribute === 'src' ? 'image' : tag === 'a' && attribute === 'href' ? 'link' : null;
    const resolved = kind ? resolveRepositoryUrl(unescapeAttribute(value), kind, context) : null;
    return resolved ? `${start}${escapeAttribute(resolved)}"` : whole;
  });
}

/** The AsciiDoc document as sanitized HTML; `repository` makes its relative links point into the repository. */
export async function renderAsciidoc(text: string, sanitize: (html: string) => string, repository?: RepositoryContext): Promise<string> {
  const { convert } = await import('@asciidoctor/core');
  const html = (await convert(text, { safe: 'secure', standalone: false, attributes: { showtitle: true, 'allow-uri-read': false } })) as string;
  return sanitize(repository ? rewriteRelativeHtml(html, repository) : html);
}
