import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f1d6a40000000049454e44ae426082', 'hex');

/** PUT /projects/:id with a multipart `avatar`: GitLab's avatar_url, served to readers only. */
describe(`project avatar (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('pictured');
  });
  afterAll(() => fx?.close());

  const put = (token: string, file: { name: string; type: string; bytes: Buffer }) => {
    const form = new FormData();
    form.append('avatar', new Blob([file.bytes], { type: file.type }), file.name);
    form.append('description', 'with a face');
    return fetch(`${fx.server.url}/api/v4/projects/${project.id}`, { method: 'PUT', headers: { 'private-token': token }, body: form });
  };

  it('sets the avatar (gitbeaker), names it in avatar_url, and serves its bytes to readers only', async () => {
    const updated = await fx.root.Projects.uploadAvatar(project.id, { content: new Blob([PNG], { type: 'image/png' }), filename: 'logo.png' });
    const url = updated.avatar_url as string;
    expect(url).toBe(`${fx.server.url}/uploads/-/system/project/avatar/${project.id}/logo.png`);
    const image = await fetch(url, { headers: { 'private-token': fx.server.root.token } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);
    const stranger = await fx.server.createUser();
    expect((await fetch(url, { headers: { 'private-token': stranger.token } })).status).toBe(404);
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(url.replace('logo.png', 'other.png'), { headers: { 'private-token': fx.server.root.token } })).status).toBe(404);
  });

  it('takes other fields beside the file, and refuses bad files with 400 and GitLab\'s messages', async () => {
    const both = await put(fx.server.root.token, { name: 'face.jpg', type: 'image/jpeg', bytes: PNG });
    expect(both.status).toBe(200);
    expect(await both.json()).toMatchObject({ description: 'with a face', avatar_url: expect.stringMatching(/\/face\.jpg$/) });
    const svg = await put(fx.server.root.token, { name: 'x.svg', type: 'image/svg+xml', bytes: Buffer.from('<svg/>') });
    expect(svg.status).toBe(400);
    expect(await svg.json()).toEqual({ message: { avatar: ['file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp'] } });
    const big = await put(fx.server.root.token, { name: 'big.png', type: 'image/png', bytes: Buffer.alloc(200 * 1024 + 1) });
    expect(big.status).toBe(400);
    expect(await big.json()).toEqual({ message: { avatar: ['is too big (should be at most 200 KiB)'] } });
    expect((await fx.call('GET', `/projects/${project.id}`)).body.avatar_url).toMatch(/\/face\.jpg$/);
  });

  it('refuses a Developer (403) and a stranger (404)', async () => {
    const developer = await fx.member(project.id, 30);
    expect((await put(developer.token, { name: 'dev.png', type: 'image/png', bytes: PNG })).status).toBe(403);
    const stranger = await fx.server.createUser();
    expect((await put(stranger.token, { name: 'x.png', type: 'image/png', bytes: PNG })).status).toBe(404);
  });
});
