import { describe, expect, it } from 'vitest';
import { renderAsciidoc, rewriteRelativeHtml } from './asciidoc.js';
import { sanitizeRenderedHtml } from './sanitize.js';

const context = { projectPath: 'g/p', ref: 'main', dir: 'docs' };

describe('AsciiDoc READMEs', () => {
  it.each([
    ['<a href="guide.adoc">g</a>', '<a href="/g/p/-/blob/main/docs/guide.adoc">g</a>'],
    ['<img src="../img/a b.png" alt="x">', '<img src="/g/p/-/raw/main/img/a%20b.png" alt="x">'],
    ['<a href="https://example.com">e</a>', '<a href="https://example.com">e</a>'],
    ['<a href="#top">t</a>', '<a href="#top">t</a>'],
    ['<a class="bare" href="x?a=1&amp;b=2">q</a>', '<a class="bare" href="/g/p/-/blob/main/docs/x?a=1&amp;b=2">q</a>'],
  ])('rewriteRelativeHtml(%s)', (html, expected) => expect(rewriteRelativeHtml(html, context)).toBe(expected));

  it('takes linear time over unclosed tags', () => {
    const hostile = '<a '.repeat(200_000);
    expect(rewriteRelativeHtml(hostile, context)).toBe(hostile);
  });

  it('renders in secure mode and sanitizes last', async () => {
    const html = await renderAsciidoc('== Part\n\n*bold* pass:[<script>x()</script>]\n\ninclude::README.md[]', sanitizeRenderedHtml, context);
    expect(html).toContain('<h2>Part</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).not.toContain('<script>');
    expect(html).toContain(`href="/g/p/-/blob/main/docs/README.md"`);
  });
});
