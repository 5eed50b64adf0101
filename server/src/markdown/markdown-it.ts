import hljs from 'highlight.js';
import markdownIt, { type MarkdownIt, type StateCore, type Token } from 'markdown-it';
import { full as emoji } from 'markdown-it-emoji';

/**
 * The one markdown-it instance: CommonMark plus GitLab Flavored Markdown's tables,
 * strikethrough, autolinks, task lists, `:emoji:` and highlighted code blocks. Raw HTML
 * is allowed here because GitLab allows some (`<details>`, `<kbd>`…); everything it
 * produces goes through the allow-list sanitizer afterwards, which is the security
 * boundary, never this parser.
 */
export function createMarkdownIt(): MarkdownIt {
  const md = markdownIt({
    html: true,
    linkify: true,
    breaks: false,
    highlight: highlightCode,
  });
  md.use(emoji);
  md.renderer.rules.emoji = glEmoji;
  md.core.ruler.after('inline', 'task_lists', taskLists);
  return md;
}

/** markdown-it-emoji's names: lower-case letters, digits, `_`, `+` and `-`. */
export const EMOJI_NAME = /^[a-z0-9_+-]+$/;

/**
 * `:name:` as GitLab renders it: `<gl-emoji data-name="name">char</gl-emoji>`, the character as
 * text, so a browser without a colour emoji font can show the emoji's image instead (the web
 * app upgrades these elements; the sanitizer keeps `data-name` only when it is such a name).
 */
function glEmoji(tokens: Token[], index: number): string {
  const token = tokens[index]!;
  const name = EMOJI_NAME.test(token.markup) ? ` data-name="${token.markup}"` : '';
  return `<gl-emoji${name}>${escapeText(token.content)}</gl-emoji>`;
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const MAX_HIGHLIGHT_BYTES = 100_000;

/** Highlighted HTML for a fenced block with a known language; '' lets markdown-it escape it. */
function highlightCode(code: string, language: string): string {
  if (!language || code.length > MAX_HIGHLIGHT_BYTES || !hljs.getLanguage(language)) return '';
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return '';
  }
}

const TASK = /^\[([ xX])\][ \u00a0]/;

/**
 * `- [ ] todo` and `- [x] done`: the list item gets GitLab's `task-list-item` class and
 * a disabled checkbox (toggling tasks from the page comes with editing rights later).
 */
function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue;
    const first = inline.children?.[0];
    const match = first?.type === 'text' ? TASK.exec(first.content) : null;
    if (!first || !match) continue;
    first.content = first.content.slice(match[0].length);
    const checkbox = new state.Token('html_inline', '', 0);
    const checked = match[1] !== ' ';
    checkbox.content = `<input type="checkbox" class="task-list-item-checkbox" disabled${checked ? ' checked' : ''}> `;
    inline.children!.unshift(checkbox);
    const item: Token = tokens[i - 2]!;
    item.attrJoin('class', 'task-list-item');
    const list = findListOpen(tokens, i - 2);
    list?.attrJoin('class', 'contains-task-list');
  }
}

function findListOpen(tokens: Token[], itemIndex: number): Token | undefined {
  let depth = 0;
  for (let j = itemIndex - 1; j >= 0; j--) {
    const token = tokens[j]!;
    if (token.type === 'bullet_list_close' || token.type === 'ordered_list_close') depth++;
    if (token.type === 'bullet_list_open' || token.type === 'ordered_list_open') {
      if (depth === 0) return String(token.attrGet('class') ?? '').includes('contains-task-list') ? undefined : token;
      depth--;
    }
  }
  return undefined;
}
