import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../server/src/test-support/server.js';
import { api } from './support/api.js';
import { launchBrowser, newPage, type LaunchedBrowser } from './support/browser.js';
import { pageSettled, shot, signInThroughForm } from './support/flows.js';

/**
 * The sanitizer's security rule: an XSS corpus posted as merge request descriptions, comments and
 * referenced titles renders inert in a real browser. Every payload tries to set
 * `window.__xss`; the page must end with it unset, no dialog opened, and no markup the
 * sanitizer should have removed (scripts, event handlers, javascript:/data: links, SVG).
 */
const T = 'xss';

const CORPUS = [
  '<script>window.__xss = "script"</script>',
  '<img src=x onerror="window.__xss = \'img onerror\'">',
  '[click](javascript:window.__xss=\'javascript link\')',
  '[click](JaVaScRiPt:window.__xss=1)',
  '[click](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '<svg onload="window.__xss = \'svg\'"><script>window.__xss = "svg script"</script></svg>',
  '<math><mi xlink:href="javascript:window.__xss=1">math</mi></math>',
  '<iframe src="javascript:parent.__xss=\'iframe\'"></iframe>',
  '<details open ontoggle="window.__xss = \'details\'">details</details>',
  '<div style="background:url(javascript:window.__xss=1)">styled</div>',
  '<noscript><p title="</noscript><img src=x onerror=window.__xss=\'mxss\'>">',
  '<a href="https://ok.example" onclick="window.__xss=\'onclick\'">ok link</a>',
  '![x](https://ok.example/a.png" onerror="window.__xss=\'markdown image\')',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+">',
  '<form action="/x"><button formaction="javascript:window.__xss=1">form</button></form>',
  '`<script>window.__xss = "code"</script>` and\n\n```html\n<img src=x onerror=window.__xss=1>\n```',
];

describe('an XSS corpus in a real browser', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let page: Page;
  let member: TestUser;
  let project: { id: number; path_with_namespace: string };
  let secret: { id: number; path_with_namespace: string };
  let iid = 0;
  let secretIid = 0;
  const rest = <R = any>(method: 'GET' | 'POST' | 'PUT', path: string, body?: Record<string, unknown>, token = server.root.token) => api<R>(server.url, token, method, path, body);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    member = await server.createUser({ username: 'visitor', name: 'Visiting Member' });
    project = await rest('POST', '/projects', { name: 'xss', path: 'xss', visibility: 'private', initialize_with_readme: true });
    secret = await rest('POST', '/projects', { name: 'secret', path: 'secret', visibility: 'private', initialize_with_readme: true });
    await rest('POST', `/projects/${project.id}/members`, { user_id: member.id, access_level: 30 });
    for (const [target, branch] of [[project, 'feature'], [secret, 'hidden']] as const) {
      await rest('POST', `/projects/${target.id}/repository/commits`, {
        branch,
        start_branch: 'main',
        commit_message: 'Change',
        actions: [{ action: 'create', file_path: `${branch}.txt`, content: `${branch}\n` }],
      });
    }
    // A referenced merge request whose title is markup; the member may not see it at all.
    ({ iid: secretIid } = await rest<{ iid: number }>('POST', `/projects/${secret.id}/merge_requests`, {
      source_branch: 'hidden',
      target_branch: 'main',
      title: '<img src=x onerror="window.__xss = \'title\'"> Secret plans',
    }));
    const reference = `${secret.path_with_namespace}!${secretIid}`;
    ({ iid } = await rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'main',
      title: '<script>window.__xss = "mr title"</script> Payloads',
      description: [...CORPUS, `See ${reference}.`].join('\n\n'),
    }));
    for (const body of [...CORPUS, `Related: ${reference}`]) await rest('POST', `/projects/${project.id}/merge_requests/${iid}/notes`, { body });

    page = await newPage(browser, server.url);
    // The Activity list is virtualised: a tall window renders every comment at once.
    await page.setViewportSize({ width: 1280, height: 12_000 });
    await page.addInitScript('window.__xss = undefined; window.__dialogs = 0;');
    page.on('dialog', (dialog) => {
      void page.evaluate('window.__dialogs++').catch(() => undefined);
      void dialog.dismiss();
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens the merge request and waits until every comment of the corpus is on the page. */
  async function visit(): Promise<void> {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await page.locator('#notes').getByText('Related:').waitFor({ timeout: 30_000 });
    await page.locator('#notes').getByText('ok link').first().waitFor();
    // Every image the browser will load has loaded or failed (a lazy one far below the window
    // is never requested), then the page has had its frames: any handler that slipped through
    // the sanitizer (onerror, onload) has run by then.
    await page.waitForFunction(() =>
      Array.from(document.images).every((img) => img.complete || (img.loading === 'lazy' && img.getBoundingClientRect().top > window.innerHeight * 3)),
    );
    await pageSettled(page);
  }

  async function assertInert(): Promise<void> {
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.evaluate('window.__dialogs')).toBe(0);
    const leaks = (await page.evaluate(`(() => {
      const found = [];
      for (const element of document.querySelectorAll('main *')) {
        const tag = element.tagName.toLowerCase();
        if (['script', 'iframe', 'object', 'embed', 'form', 'math', 'noscript'].includes(tag)) found.push('<' + tag + '>');
        // Primer's icons and spinners are SVG (class octicon, or inside a status); user content never is.
        if (tag === 'svg' && !element.classList.contains('octicon') && !element.closest('[role="status"], [aria-busy]')) found.push('<svg> ' + element.getAttribute('class'));
        for (const attribute of element.attributes) {
          const name = attribute.name.toLowerCase();
          const value = attribute.value.replace(/\\s+/g, '').toLowerCase();
          if (name.startsWith('on')) found.push(tag + ' ' + name);
          if (['href', 'src', 'action', 'formaction', 'xlink:href'].includes(name) && /^(javascript|vbscript|data):/.test(value)) found.push(tag + ' ' + name + '=' + value.slice(0, 20));
          if (name === 'style' && /url\\(|expression/.test(value)) found.push(tag + ' style');
        }
      }
      return found;
    })()`)) as string[];
    expect(leaks).toEqual([]);
  }

  it('renders the corpus inert for the author, who may see the referenced request', async () => {
    await signInThroughForm(page, { username: 'root', password: server.root.password });
    await visit();
    await assertInert();
    // The reference is a link for someone who may see it, its title shown as text, never as markup.
    const link = page.locator('#notes a', { hasText: `${secret.path_with_namespace}!${secretIid}` }).first();
    await link.waitFor();
    expect(await link.evaluate((element) => element.querySelector('img'))).toBeNull();
    await shot(page, T, 'author');
  });

  it('renders it inert for a member who may not see the referenced request, and does not link it', async () => {
    await page.context().clearCookies();
    await signInThroughForm(page, { username: member.username, password: member.password });
    await visit();
    await assertInert();
    const reference = `${secret.path_with_namespace}!${secretIid}`;
    expect(await page.locator('#notes').getByText(`Related: ${reference}`).count()).toBe(1);
    expect(await page.locator('#notes a', { hasText: reference }).count()).toBe(0);
    expect(await page.locator('main').getByText('Secret plans').count()).toBe(0);
    await shot(page, T, 'member');
  });
});
