import { CSRF_HEADER } from '@tributary/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { startMarkdownFixtures, type MarkdownFixtures } from '../../test-support/markdown-fixtures.js';
import type { MergeRequestFixtures } from '../../test-support/merge-request-fixtures.js';
import type { TestUser } from '../../test-support/server.js';
import { signIn } from '../graphql/testing.js';

/**
 * POST /-/projects/:id/markdown: the web app's notes rendered many at a time, each exactly as
 * GitLab's POST /markdown renders it for the same reader, references linked only when visible.
 */
describe(`markdown batch (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let secret: MarkdownFixtures['secret'];
  let open: MarkdownFixtures['open'];
  let stranger: TestUser;
  let reporter: TestUser;

  beforeAll(async () => {
    ({ fx, secret, open, stranger, reporter } = await startMarkdownFixtures('batch'));
  });
  afterAll(() => fx?.close());

  const batch = async (project: number | string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${fx.server.url}/-/projects/${encodeURIComponent(String(project))}/markdown`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { html?: string[]; message?: unknown } };
  };
  const single = async (token: string, text: string, project: string) =>
    (await fx.call<{ html: string }>('POST', '/markdown', { token, body: { text, gfm: true, project } })).body.html;

  it('renders every text in order, each as POST /markdown renders it, by id or path', async () => {
    const texts = ['see !1 and **bold**', `cc @${reporter.username} on ${open.path_with_namespace}!1`, '![shot](/uploads/0123456789abcdef0123456789abcdef/shot.png)', 'see !1 and **bold**'];
    const byId = await batch(secret.id, { texts }, { 'private-token': reporter.token });
    expect(byId.status).toBe(200);
    const expected = await Promise.all(texts.map((text) => single(reporter.token, text, secret.path_with_namespace)));
    expect(byId.body.html).toEqual(expected);
    expect(byId.body.html![0]).toContain(`href="/${secret.path_with_namespace}/-/merge_requests/1" title="Secret &lt;b&gt;plans&lt;/b&gt;"`);
    expect(byId.body.html![1]).toContain(`<a href="/${reporter.username}"`);
    expect(byId.body.html![2]).toContain(`src="/${secret.path_with_namespace}/uploads/0123456789abcdef0123456789abcdef/shot.png"`);
    const byPath = await batch(secret.path_with_namespace, { texts }, { 'private-token': reporter.token });
    expect(byPath.body.html).toEqual(expected);
  });

  it('leaves a private project’s references unlinked for a reader who may not see it, beside visible ones in the same batch', async () => {
    const texts = [`${secret.path_with_namespace}!1`, `${open.path_with_namespace}!1 and ${secret.path_with_namespace}!1`, '!1'];
    const response = await batch(open.id, { texts }, { 'private-token': stranger.token });
    expect(response.status).toBe(200);
    const [hidden, mixed, own] = response.body.html!;
    expect(JSON.stringify(response.body)).not.toContain('Secret');
    expect(hidden).not.toContain('<a');
    expect(mixed!.match(/gfm-merge_request/g)).toHaveLength(1);
    expect(mixed).toContain(`href="/${open.path_with_namespace}/-/merge_requests/1" title="Public work"`);
    expect(own).toContain('title="Public work"');
    // the reporter of the private project sees the same batch with both links
    const member = await batch(open.id, { texts }, { 'private-token': reporter.token });
    expect(member.body.html![0]).toContain('title="Secret &lt;b&gt;plans&lt;/b&gt;"');
  });

  it('answers 404 for a project the caller cannot see, anonymous or signed in', async () => {
    for (const headers of [{ 'private-token': stranger.token }, {}] as Array<Record<string, string>>) {
      const response = await batch(secret.path_with_namespace, { texts: ['!1'] }, headers);
      expect(response.status).toBe(404);
      expect(JSON.stringify(response.body)).not.toContain('Secret');
    }
    // a public project renders for anonymous readers too
    expect((await batch(open.id, { texts: ['!1'] })).body.html![0]).toContain('title="Public work"');
  });

  it('answers 400 with a message for a batch it will not render', async () => {
    const token = { 'private-token': reporter.token };
    const cases: unknown[] = [{}, { texts: 'one' }, { texts: [] }, { texts: ['a', 2] }, { texts: Array.from({ length: 101 }, (_, i) => `text ${i}`) }, { texts: ['x'.repeat(1_000_001)] }, { texts: ['x'.repeat(900_000), 'y'.repeat(900_000), 'z'.repeat(900_000)] }];
    for (const body of cases) {
      const response = await batch(secret.id, body, token);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(response.body.message).toBeDefined();
    }
    expect((await batch(secret.id, { texts: Array.from({ length: 100 }, (_, i) => `text ${i}`) }, token)).body.html).toHaveLength(100);
  });

  it('takes the web session: needs the CSRF header like every other write', async () => {
    const session = await signIn(fx.server.url, reporter.username, reporter.password);
    const without = await batch(secret.id, { texts: ['!1'] }, { cookie: session.cookie });
    expect(without.status).toBe(403);
    const withToken = await batch(secret.id, { texts: ['!1'] }, { cookie: session.cookie, [CSRF_HEADER]: session.csrfToken });
    expect(withToken.status).toBe(200);
    expect(withToken.body.html![0]).toContain('title="Secret &lt;b&gt;plans&lt;/b&gt;"');
  });
});
