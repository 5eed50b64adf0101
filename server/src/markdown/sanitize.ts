import sanitizeHtml from 'sanitize-html';
import { EMOJI_NAME } from './markdown-it.js';

/**
 * The allow-list every rendered Markdown document passes through: the tags GitLab Flavored
 * Markdown produces and the few raw HTML tags GitLab allows; no event handlers, no styles but
 * a span's hex background and text colour (labels),
 * `<gl-emoji>` with an emoji name (`:emoji:`), no `javascript:`/`data:`/`vbscript:` URLs, no SVG or MathML, no forms. Anything not
 * listed is dropped (its text kept, escaped). Links that leave the site get
 * `rel="nofollow noreferrer noopener"` and open in a new tab.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'span', 'div',
    'em', 'strong', 'del', 's', 'b', 'i', 'u', 'ins', 'mark', 'sub', 'sup', 'kbd', 'samp', 'var', 'abbr', 'q', 'small',
    'a', 'img', 'ul', 'ol', 'li', 'input', 'dl', 'dt', 'dd',
    'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'colgroup', 'col',
    'details', 'summary', 'gl-emoji',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'class', 'data-reference-type', 'data-project-path', 'data-iid', 'data-username', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    input: ['type', 'checked', 'disabled', 'class'],
    code: ['class'],
    span: ['class', 'style'],
    pre: ['class'],
    li: ['class'],
    ul: ['class'],
    ol: ['class', 'start'],
    th: ['align'],
    td: ['align'],
    abbr: ['title'],
    details: ['open'],
    'gl-emoji': ['data-name'],
  },
  allowedClasses: {
    a: ['gfm', 'gfm-merge_request', 'gfm-project_member', 'gfm-label', 'gfm-milestone'],
    code: [/^language-[\w+#-]+$/, 'hljs'],
    span: [/^hljs-[\w-]+$/, 'language-xml', 'language-css', 'language-javascript', 'gl-label', 'gl-label-scoped', 'gl-label-text', 'gl-label-text-scoped'],
    pre: ['code', 'highlight'],
    li: ['task-list-item'],
    ul: ['contains-task-list'],
    ol: ['contains-task-list'],
    input: ['task-list-item-checkbox'],
  },
  // Label colours only: exactly #RGB or #RRGGBB; any other style is dropped.
  allowedStyles: {
    span: {
      'background-color': [/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/],
      color: [/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/],
    },
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // Checkboxes only (task lists); other input types are dropped with their attributes.
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
  transformTags: {
    input: (tagName, attribs) => ({ tagName, attribs: { ...attribs, disabled: '' } }),
    a: (tagName, attribs) => ({ tagName, attribs: withLinkRel(attribs) }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy' } }),
    // an emoji's name only (the web app reads it for the image's alt); any other value is dropped
    'gl-emoji': (tagName, attribs) => ({ tagName, attribs: emojiNameOnly(attribs['data-name']) }),
  },
  disallowedTagsMode: 'escape',
};

function emojiNameOnly(name: string | undefined): sanitizeHtml.Attributes {
  return name !== undefined && EMOJI_NAME.test(name) ? { 'data-name': name } : {};
}

function withLinkRel(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const href = attribs.href ?? '';
  const { rel: _rel, target: _target, ...rest } = attribs;
  if (/^https?:/i.test(href)) return { ...rest, rel: 'nofollow noreferrer noopener', target: '_blank' };
  return rest;
}

export function sanitizeRenderedHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
