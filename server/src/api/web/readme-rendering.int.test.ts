import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../test-support/repository-fixtures.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/**
 * A README on the project page: POST /-/projects/:id/markdown with `ref` and `path` resolves
 * relative links to the repository's blobs and images to `/<project>/-/raw/<ref>/<path>`, which
 * serves the file to those who may read the code; the sanitizer still decides what survives.
 */
describe(`README rendering and raw files (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('readme-lab');
    await fx.call('POST', `/projects/${project.id}/repository/commits`, {
      body: {
        branch: 'main',
        commit_message: 'docs and logo',
        actions: [
          { action: 'create', file_path: 'docs/guide.md', content: '# Guide\n\n[Back](../README.md) ![Shot](shot.png)' },
          { action: 'create', file_path: 'img/logo.png', content: PNG.toString('base64'), encoding: 'base64' },
        ],
      },
    });
    await fx.call('POST', `/projects/${project.id}/repository/branches`, { body: { branch: 'feature/docs', ref: 'main' } });
  });
  afterAll(() => fx?.close());

  const render = (body: unknown, token: string | null = fx.server.root.token) =>
    fetch(`${fx.server.url}/-/projects/${project.id}/markdown`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'private-token': token } : {}) },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as { html?: string[]; message?: unknown } }));
  const raw = (path: string, token: string | null = fx.server.root.token) =>
    fetch(`${fx.server.url}/${project.path_with_namespace}/-/raw/${path}`, { headers: token ? { 'private-token': token } : {} });

  it('resolves relative links and images in the README\'s directory at its ref, and leaves absolute ones', async () => {
    const text = '[Guide](docs/guide.md) ![Logo](img/logo.png) [Site](https://example.com) [Top](#top) [Evil](javascript:alert(1))\n\n<img src="x" onerror="alert(1)">';
    const root = await render({ texts: [text], ref: 'feature/docs', path: '' });
    expect(root.status).toBe(200);
    const html = root.body.html![0]!;
    expect(html).toContain(`href="/${project.path_with_namespace}/-/blob/feature/docs/docs/guide.md"`);
    expect(html).toContain(`src="/${project.path_with_namespace}/-/raw/feature/docs/img/logo.png"`);
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('href="#top"');
    expect(html).not.toMatch(/(href|src)="javascript:/i);
    expect(html).not.toContain('onerror');

    const nested = await render({ texts: ['[Back](../README.md) ![Shot](shot.png)'], ref: 'main', path: 'docs' });
    expect(nested.body.html![0]).toContain(`href="/${project.path_with_namespace}/-/blob/main/README.md"`);
    expect(nested.body.html![0]).toContain(`src="/${project.path_with_namespace}/-/raw/main/docs/shot.png"`);
    // Without a ref the batch renders as before: relative links stay as written.
    expect((await render({ texts: ['[Guide](docs/guide.md)'] })).body.html![0]).toContain('href="docs/guide.md"');
  });

  it('renders an AsciiDoc README with format "asciidoc": relative links into the repository, no includes, the sanitizer last', async () => {
    const text = [
      '= Readme Lab',
      '',
      'Read the link:docs/guide.md[guide] and https://example.com[the site].',
      '',
      'image::img/logo.png[Logo]',
      '',
      '|===',
      '|a |b',
      '|1 |2',
      '|===',
      '',
      'include::/etc/passwd[]',
      '',
      '++++',
      '<img src="x" onerror="alert(1)"><a href="javascript:alert(1)">evil</a>',
      '++++',
    ].join('\n');
    const rendered = await render({ texts: [text], ref: 'main', path: '', format: 'asciidoc' });
    expect(rendered.status).toBe(200);
    const html = rendered.body.html![0]!;
    expect(html).toContain('<h1>Readme Lab</h1>');
    expect(html).toContain(`href="/${project.path_with_namespace}/-/blob/main/docs/guide.md"`);
    expect(html).toContain(`src="/${project.path_with_namespace}/-/raw/main/img/logo.png"`);
    expect(html).toContain('href="https://example.com" rel="nofollow noreferrer noopener" target="_blank"');
    expect(html).toMatch(/<table>[\s\S]*<td>[\s\S]*1[\s\S]*<\/td>/);
    // secure mode: an include is a link to its target, never the file's text
    expect(html).not.toContain('root:');
    expect(html).not.toContain('onerror');
    expect(html).not.toMatch(/(href|src)="javascript:/i);
    expect((await render({ texts: ['x'], format: 'rst' })).status).toBe(400);
    const stranger = await fx.server.createUser();
    expect((await render({ texts: ['= X'], format: 'asciidoc' }, stranger.token)).status).toBe(404);
  });

  it('refuses a bad ref or path with 400', async () => {
    expect((await render({ texts: ['x'], ref: 42 })).status).toBe(400);
    expect((await render({ texts: ['x'], ref: '' })).status).toBe(400);
    expect((await render({ texts: ['x'], ref: 'main', path: ['a'] })).status).toBe(400);
  });

  it('serves raw files by ref and path (refs with slashes too): images inline with their type, text as plain text', async () => {
    const image = await raw('feature/docs/img/logo.png');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);
    const text = await raw('main/docs/guide.md');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toContain('# Guide');
    expect((await raw('main/no/such/file.png')).status).toBe(404);
    expect((await raw('no-such-ref/img/logo.png')).status).toBe(404);
  });

  it('answers 404 to a stranger and to a signed-out visitor of the private project', async () => {
    const stranger = await fx.server.createUser();
    expect((await raw('main/img/logo.png', stranger.token)).status).toBe(404);
    expect((await raw('main/img/logo.png', null)).status).toBe(404);
    expect((await render({ texts: ['x'], ref: 'main' }, stranger.token)).status).toBe(404);
  });
});
