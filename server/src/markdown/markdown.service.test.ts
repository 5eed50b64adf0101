import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import type { Project } from '../domains/projects/project.js';
import { createMarkdownService } from './markdown.service.js';
import { limitProjects, MAX_PROJECTS, type ReferenceResolver, type ResolvedReference } from './reference-resolver.js';
import { scanReferences } from './references.js';

const actor = { user: null } as unknown as Actor;
const project = { id: 1, full_path: 'team/app' } as Project;

/** Resolves exactly the keys it is given, as the database-backed resolver would for a reader who sees them. */
function resolverOf(known: Record<string, ResolvedReference>): ReferenceResolver {
  return {
    async resolve() {
      return new Map(Object.entries(known));
    },
  };
}

const mergeRequest = (title: string): ResolvedReference => ({ kind: 'merge_request', href: '/team/app/-/merge_requests/1', title, projectPath: 'team/app', iid: 1 });
const render = (text: string, known: Record<string, ResolvedReference> = {}) =>
  createMarkdownService({ references: resolverOf(known) }).render(actor, text, { project });

describe('markdown rendering', () => {
  it('renders GitLab Flavored Markdown: tables, strikethrough, task lists, emoji, autolinks', async () => {
    const html = await render(['| a | b |', '|---|---|', '| 1 | 2 |', '', '~~gone~~ :smile:', '', '- [ ] todo', '- [x] done', '', 'https://example.com'].join('\n'));
    expect(html).toContain('<table>');
    expect(html).toContain('<s>gone</s> <gl-emoji data-name="smile">😄</gl-emoji>');
    expect(html).toContain('<ul class="contains-task-list">');
    expect(html).toContain('<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled /> todo</li>');
    expect(html).toContain('<input type="checkbox" class="task-list-item-checkbox" disabled checked /> done');
    expect(html).toContain('<a href="https://example.com" rel="nofollow noreferrer noopener" target="_blank">https://example.com</a>');
  });

  it('wraps :emoji: in gl-emoji with its name, and keeps of a raw gl-emoji nothing but an emoji name', async () => {
    expect(await render(':+1: and `:smile:`')).toBe('<p><gl-emoji data-name="+1">👍</gl-emoji> and <code>:smile:</code></p>\n');
    expect(await render('<gl-emoji data-name="tada" onclick="alert(1)" style="color:red" class="x">🎉</gl-emoji>')).toContain('<gl-emoji data-name="tada">🎉</gl-emoji>');
    expect(await render('<gl-emoji data-name="x&quot; onload=&quot;alert(1)">y</gl-emoji>')).toContain('<gl-emoji>y</gl-emoji>');
    expect(await render('<gl-emoji data-name="a b">y</gl-emoji>')).toContain('<gl-emoji>y</gl-emoji>');
  });

  it('highlights fenced code with a known language and escapes the rest', async () => {
    expect(await render('```js\nconst a = "<b>";\n```')).toContain('<span class="hljs-keyword">const</span>');
    expect(await render('```nolang\n<b>x</b>\n```')).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  it('links references it resolved, with the target title escaped, and leaves the others as text', async () => {
    const html = await render('see !1 and !2, cc @alice', {
      'team/app!1': mergeRequest('<img src=x onerror=alert(1)>'),
      '@alice': { kind: 'user', href: '/alice', title: 'Alice "A"', username: 'alice' },
    });
    expect(html).toContain('<a href="/team/app/-/merge_requests/1" title="&lt;img src=x onerror=alert(1)&gt;" class="gfm gfm-merge_request"');
    expect(html).toContain('>!1</a> and !2, cc <a href="/alice" title="Alice &quot;A&quot;" class="gfm gfm-project_member"');
    expect(html).not.toContain('<img');
  });

  it('never links references inside code or existing links', async () => {
    const html = await render('`!1` [see !1](https://example.com) !1', { 'team/app!1': mergeRequest('one') });
    expect(html.match(/gfm-merge_request/g)).toHaveLength(1);
    expect(html).toContain('<code>!1</code>');
  });

  it('points uploads at the project', async () => {
    const html = await render('![shot](/uploads/0123456789abcdef0123456789abcdef/shot.png)');
    expect(html).toContain('src="/team/app/uploads/0123456789abcdef0123456789abcdef/shot.png"');
  });

  it.each([
    ['<script>alert(1)</script>', /<script/i],
    ['<img src=x onerror=alert(1)>', /onerror/i],
    ['[x](javascript:alert(1))', /javascript:/i],
    ['[x](JaVaScRiPt:alert(1))', /javascript:/i],
    ['[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)', /data:/i],
    ['<a href="vbscript:msgbox(1)">x</a>', /vbscript:/i],
    ['<svg><script>alert(1)</script></svg>', /<svg|<script/i],
    ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>', /<math|javascript:/i],
    ['<iframe src="https://evil.example"></iframe>', /<iframe/i],
    ['<form action="/x"><input type="text" name="a"></form>', /<form|type="text"/i],
    ['<div style="background:url(javascript:alert(1))">x</div>', /style=/i],
    ['<noscript><p title="</noscript><img src=x onerror=alert(1)>">', /onerror/i],
    ['<a href="https://ok.example" onclick="alert(1)">x</a>', /onclick/i],
    ['![x](https://ok.example/a.png" onerror="alert(1))', /onerror="/i],
    ['<details open ontoggle=alert(1)>x</details>', /ontoggle/i],
    ['<img src="data:image/svg+xml;base64,PHN2Zz4=">', /data:/i],
  ])('renders %s inert', async (source, forbidden) => {
    const html = await render(source);
    // Dangerous text may stay as escaped text; it must never be markup or an attribute.
    const tags = html.match(/<[^>]*>/g) ?? [];
    for (const tag of tags) expect(tag).not.toMatch(forbidden);
    expect(html).not.toMatch(/<[^>]*\son\w+\s*=/i);
    expect(html).not.toMatch(/(href|src)\s*=\s*["']?\s*(javascript|data|vbscript):/i);
  });
});

describe('rendering many texts at once', () => {
  it('renders each text as render() does, with one lookup of the references of them all', async () => {
    const calls: string[][] = [];
    const known = { 'team/app!1': mergeRequest('one'), '@alice': { kind: 'user', href: '/alice', title: 'Alice', username: 'alice' } as ResolvedReference };
    const service = createMarkdownService({
      references: {
        async resolve(_actor, candidates) {
          calls.push(candidates.map((candidate) => candidate.raw));
          return new Map(Object.entries(known));
        },
      },
    });
    const texts = ['see !1', 'cc @alice', '`!1` in code', '**plain**', 'see !1'];
    const many = await service.renderMany(actor, texts, { project });
    expect(calls).toEqual([['!1', '@alice', '!1']]);
    expect(many).toEqual(await Promise.all(texts.map((text) => service.render(actor, text, { project }))));
    expect(many[0]).toContain('gfm-merge_request');
    expect(many[2]).not.toContain('<a');
  });

  it('keeps the limit of projects each text looks up', () => {
    const text = Array.from({ length: MAX_PROJECTS + 5 }, (_, i) => `group/p${i}!1`).join(' ') + ' @bob !2';
    const kept = limitProjects(scanReferences(text), 'team/app');
    const paths = new Set(kept.flatMap((candidate) => (candidate.kind === 'merge_request' ? [candidate.projectPath ?? 'team/app'] : [])));
    expect(paths.size).toBe(MAX_PROJECTS);
    expect(kept.some((candidate) => candidate.kind === 'user')).toBe(true);
    expect(limitProjects(scanReferences('!1 @bob'), null).map((candidate) => candidate.raw)).toEqual(['@bob']);
  });

  it('draws labels with their validated colour and links milestones', async () => {
    const label = (name: string, color: string): ResolvedReference => ({ kind: 'label', href: `/team/app/-/merge_requests?label_name[]=${encodeURIComponent(name)}`, title: 'Desc', name, color, projectPath: 'team/app' });
    const html = await render('~bug ~"prio::high" ~evil %v1.0', {
      'team/app~"bug"': label('bug', '#d9534f'),
      'team/app~"prio::high"': label('prio::high', '#fff'),
      'team/app~"evil"': label('evil', 'red;background-image:url(x)'),
      'team/app%"v1.0"': { kind: 'milestone', href: '/team/app/-/milestones/1', title: 'v1.0', projectPath: 'team/app' },
    });
    expect(html).toContain('<span class="gl-label"><a href="/team/app/-/merge_requests?label_name[]=bug" title="Desc" class="gfm gfm-label" data-reference-type="label" data-project-path="team/app"><span class="gl-label-text" style="background-color:#d9534f;color:#FFFFFF">bug</span></a></span>');
    expect(html).toContain('<span class="gl-label gl-label-scoped">');
    expect(html).toContain('<span class="gl-label-text" style="background-color:#fff;color:#1F1E24">prio</span><span class="gl-label-text-scoped">high</span>');
    expect(html).toContain('<span class="gl-label-text" style="background-color:#6699cc;color:#FFFFFF">evil</span>');
    expect(html).not.toContain('url(');
    expect(html).toContain('<a href="/team/app/-/milestones/1" title="v1.0" class="gfm gfm-milestone" data-reference-type="milestone" data-project-path="team/app">%v1.0</a>');
  });

  it('keeps only hex colours in styles written by hand', async () => {
    const html = await render('<span style="background-color: #abc; position: fixed; color: expression(alert(1))">x</span> <div style="color:#fff">y</div>');
    expect(html).toContain('<span style="background-color:#abc">x</span>');
    expect(html).not.toContain('position');
    expect(html).not.toContain('expression');
    expect(html).not.toMatch(/<div style/);
  });
});
