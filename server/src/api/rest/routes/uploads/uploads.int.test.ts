import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { PNG, SETUP_TIMEOUT_MS, startNotesFixtures, type NotesFixtures, type NotesProject } from '../../../../test-support/notes-fixtures.js';
import type { TestUser } from '../../../../test-support/server.js';

/**
 * Project uploads: GitLab's answer through @gitbeaker/rest, then the files themselves with
 * plain HTTP (status codes and headers): read permission (404 for what the caller may not
 * read, also through the numeric /-/project/:id/ route), path traversal in the name, SVG and
 * HTML as downloads with nosniff, the 10 MB limit, and bytes stored under the secret only.
 */
describe(`uploads (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let mine: NotesProject;
  let theirs: NotesProject;
  let stranger: TestUser;
  let guest: TestUser;
  let reporter: TestUser;

  const upload = async (projectId: number, name: string, content: Blob | Buffer | string, token?: string | null) => {
    const form = new FormData();
    form.append('file', content instanceof Blob ? content : new Blob([content]), name);
    const headers: Record<string, string> = {};
    const t = token === undefined ? fx.server.root.token : token;
    if (t) headers['private-token'] = t;
    const response = await fetch(`${fx.server.url}/api/v4/projects/${projectId}/uploads`, { method: 'POST', body: form, headers });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const get = (path: string, token?: string | null) => {
    const t = token === undefined ? fx.server.root.token : token;
    return fetch(`${fx.server.url}${path}`, { headers: t ? { 'private-token': t } : {}, redirect: 'manual' });
  };

  /** Nothing of an upload: a 404, a 400 (a NUL byte is refused as bad input), or (a URL no upload route matches) the web app's HTML shell. */
  const expectNotServed = async (response: Response, what: string, secretContent?: string) => {
    const body = await response.text();
    if (response.status !== 404 && response.status !== 400) {
      expect(response.status, what).toBe(200);
      expect(response.headers.get('content-type'), what).toMatch(/^text\/html/);
      expect(response.headers.get('content-disposition'), what).toBeNull();
    }
    if (secretContent) expect(body, what).not.toContain(secretContent);
  };

  beforeAll(async () => {
    fx = await startNotesFixtures();
    mine = await fx.notesProject('uploads-mine');
    theirs = await fx.notesProject('uploads-theirs');
    stranger = await fx.server.createUser();
    guest = await fx.member(mine.id, 10);
    reporter = await fx.member(mine.id, 20);
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  it('answers with GitLab’s entity and serves the image inline at both URLs', async () => {
    const created = (await fx.root.Projects.uploadForReference(mine.id, { content: new Blob([PNG]), filename: 'dk.png' })) as unknown as Record<string, any>;
    expect(created).toMatchObject({ alt: 'dk', markdown: `![dk](${created.url})` });
    expect(typeof created.id).toBe('number');
    expect(created.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/dk\.png$/);
    expect(created.full_path).toBe(`/-/project/${mine.id}${created.url}`);

    for (const path of [`/${mine.path}${created.url}`, created.full_path as string]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('content-disposition')).toMatch(/^inline;/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
    }
  });

  it('uploading needs what commenting needs: a Reporter may, a Guest of a private project may not, a stranger sees nothing', async () => {
    const asReporter = await upload(mine.id, 'r.txt', 'reporter', reporter.token);
    expect(asReporter.status).toBe(201);
    // GitLab keeps the extension in the alt of a file that is not an image or a video
    expect(asReporter.body).toMatchObject({ alt: 'r.txt', markdown: `[r.txt](${asReporter.body.url})` });
    expect((await upload(mine.id, 'g.txt', 'guest', guest.token)).status).toBe(403);
    expect((await upload(mine.id, 's.txt', 'x', stranger.token)).status).toBe(404);
    expect((await upload(mine.id, 'a.txt', 'x', null)).status).toBe(401);
    expect((await upload(mine.id, 'nothing.txt', 'x', null)).body.message).toBe('401 Unauthorized');
  });

  it('answers 400 without a file', async () => {
    const response = await fx.call('POST', `/projects/${mine.id}/uploads`, { body: {} });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('file');
  });

  it('an upload of a project the caller cannot read is a 404, by path, by id and from another project', async () => {
    const theirsUpload = (await upload(theirs.id, 'secret.png', PNG)).body;
    expect((await get(`/${theirs.path}${theirsUpload.url}`, stranger.token)).status).toBe(404);
    expect((await get(theirsUpload.full_path, stranger.token)).status).toBe(404);
    expect((await get(`/${theirs.path}${theirsUpload.url}`, null)).status).toBe(404);
    // The secret is right, the project is not its own: still nothing.
    expect((await get(`/${mine.path}${theirsUpload.url}`)).status).toBe(404);
    expect((await get(`/-/project/${mine.id}${theirsUpload.url}`)).status).toBe(404);
    // A wrong name with the right secret, and a malformed secret
    expect((await get(`/${theirs.path}${theirsUpload.url.replace('secret.png', 'other.png')}`)).status).toBe(404);
    await expectNotServed(await get(`/${theirs.path}/uploads/%2e%2e/%2e%2e/etc/passwd`), 'dot segments', 'root:');
  });

  it('a path in the file name is reduced to its base name, and traversal in the URL finds nothing', async () => {
    const created = (await upload(mine.id, '../../../../etc/passwd', 'not a password file')).body;
    expect(created.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/passwd$/);
    const secret = (created.url as string).split('/')[2]!;
    expect(await (await get(`/${mine.path}${created.url}`)).text()).toBe('not a password file');
    for (const tail of ['..%2f..%2f..%2f..%2fetc%2fpasswd', '%2e%2e%2fpasswd', '..%252fpasswd', 'passwd%00.png', '..%5c..%5cpasswd', '%2fetc%2fpasswd']) {
      // a NUL byte is refused as bad input (400) before any lookup; the others find nothing
      expect((await get(`/${mine.path}/uploads/${secret}/${tail}`)).status, tail).toBe(tail.includes('%00') ? 400 : 404);
      // CVE-2023-2825's shape: an empty segment, then the encoded traversal
      await expectNotServed(await get(`/${mine.path}/uploads/${secret}//${tail}`), tail, 'root:');
    }
    // Only our own values are paths on disk: <uploads>/<project id>/<32 hex>
    const stored = readdirSync(join(fx.server.dataDir, 'uploads', String(mine.id)));
    expect(stored.length).toBeGreaterThan(0);
    for (const name of stored) expect(name).toMatch(/^[0-9a-f]{32}$/);
  });

  it('serves SVG and HTML as downloads with nosniff', async () => {
    for (const [name, content] of [
      ['logo.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'],
      ['page.html', '<script>alert(1)</script>'],
    ] as const) {
      const created = (await upload(mine.id, name, content)).body;
      expect(created.markdown).toBe(`[${name}](${created.url})`);
      const response = await get(`/${mine.path}${created.url}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-type')).not.toMatch(/html/);
      expect(response.headers.get('content-security-policy')).toContain('sandbox');
    }
  });

  it('refuses a file over 10 MB with 413 and stores nothing', async () => {
    const before = readdirSync(join(fx.server.dataDir, 'uploads', String(mine.id))).length;
    const response = await upload(mine.id, 'big.bin', Buffer.alloc(10 * 1024 * 1024 + 1));
    expect(response.status).toBe(413);
    expect(readdirSync(join(fx.server.dataDir, 'uploads', String(mine.id))).length).toBe(before);
    expect((await upload(mine.id, 'exact.bin', Buffer.alloc(10 * 1024 * 1024))).status).toBe(201);
  });

  it('a token reads files only with an API scope', async () => {
    const created = (await upload(mine.id, 'scoped.txt', 'scoped')).body;
    const readUser = await fx.server.createToken(fx.server.root.id, { scopes: ['read_user'] });
    const readApi = await fx.server.createToken(fx.server.root.id, { scopes: ['read_api'] });
    expect((await get(`/${mine.path}${created.url}`, readUser)).status).toBe(403);
    expect((await get(`/${mine.path}${created.url}`, readApi)).status).toBe(200);
    expect((await upload(mine.id, 'nope.txt', 'x', readApi)).status).toBe(403);
  });

  it('a public project’s uploads are readable by anyone', async () => {
    const open = await fx.notesProject('uploads-public', { visibility: 'public' });
    const created = (await upload(open.id, 'pub.txt', 'hello')).body;
    // any signed-in user may comment on a public project, so may attach files to it
    expect((await upload(open.id, 'st.txt', 'stranger', stranger.token)).status).toBe(201);
    const response = await get(`/${open.path}${created.url}`, null);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('hello');
  });

  it('renders /uploads/ links in notes to the project’s upload URL', async () => {
    const created = (await upload(mine.id, 'pic.png', PNG)).body;
    const note = await fx.call('POST', `/projects/${mine.id}/merge_requests/${mine.iid}/notes`, { body: { body: `see ${created.markdown}` } });
    expect(note.status).toBe(201);
    const html = await fx.call('POST', '/markdown', { body: { text: created.markdown, gfm: true, project: mine.path } });
    expect(html.body.html).toContain(`src="/${mine.path}${created.url}"`);
  });
}, 240_000);
