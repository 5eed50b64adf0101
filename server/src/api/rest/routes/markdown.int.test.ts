import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startMarkdownFixtures, type MarkdownFixtures } from '../../../test-support/markdown-fixtures.js';
import type { MergeRequestFixtures } from '../../../test-support/merge-request-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../test-support/server.js';

/** POST /markdown: GitLab Flavored Markdown rendered for the caller, references linked only when visible. */
describe(`markdown API (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let secret: MarkdownFixtures['secret'];
  let open: MarkdownFixtures['open'];
  let stranger: TestUser;
  let reporter: TestUser;

  beforeAll(async () => {
    ({ fx, secret, open, stranger, reporter } = await startMarkdownFixtures('md'));
  });
  afterAll(() => fx?.close());

  const render = (token: string, text: string, project?: string) =>
    gitbeakerClient(fx.server.url, token).Markdown.render(text, { gfm: 'true', ...(project ? { project } : {}) }) as Promise<{ html: string }>;

  it('renders with @gitbeaker/rest (201) and links a visible merge request with its escaped title', async () => {
    const { html } = await render(reporter.token, `see !1 and ${open.path_with_namespace}!1`, secret.path_with_namespace);
    expect(html).toContain(`href="/${secret.path_with_namespace}/-/merge_requests/1" title="Secret &lt;b&gt;plans&lt;/b&gt;"`);
    expect(html).toContain(`href="/${open.path_with_namespace}/-/merge_requests/1" title="Public work"`);
  });

  it('leaves references the caller may not see as plain text, indistinguishable from missing ones', async () => {
    const { html } = await render(stranger.token, `${secret.path_with_namespace}!1 ${secret.path_with_namespace}!99 ${open.path_with_namespace}!1`);
    expect(html).not.toContain('Secret');
    expect(html).not.toContain('merge_requests/1" title="Secret');
    expect(html.match(/gfm-merge_request/g)).toHaveLength(1);
  });

  it('answers 404 for a project the caller cannot see, and 400 without text', async () => {
    const hidden = await fx.call('POST', '/markdown', { token: stranger.token, body: { text: '!1', gfm: true, project: secret.path_with_namespace } });
    expect(hidden.status).toBe(404);
    expect(hidden.raw.toString()).not.toContain('Secret');
    const missing = await fx.call('POST', '/markdown', { token: stranger.token, body: { gfm: true } });
    expect(missing.status).toBe(400);
  });

  it('links mentions of existing users only', async () => {
    const { html } = await render(stranger.token, `hi @${reporter.username} and @nobody-here`);
    expect(html).toContain(`<a href="/${reporter.username}"`);
    expect(html).toContain('@nobody-here');
    expect(html.match(/gfm-project_member/g)).toHaveLength(1);
  });

  it('renders plain CommonMark without gfm: nothing looked up', async () => {
    const response = await fx.call<{ html: string }>('POST', '/markdown', { token: reporter.token, body: { text: '!1 **b**', project: secret.path_with_namespace } });
    expect(response.status).toBe(201);
    expect(response.body.html).toBe('<p>!1 <strong>b</strong></p>\n');
  });
});
