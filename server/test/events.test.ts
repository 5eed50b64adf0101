import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../src/test-support/server.js';
import { api } from '../src/test-support/http.js';
import { testDatabaseKind } from '../src/test-support/database.js';

/** GET /projects/:id/events?action=pushed: the push feed behind the "You pushed to …" banner. */
describe(`push events API (${testDatabaseKind()})`, () => {
  let server: TestServer;
  let guest: TestUser;
  let stranger: TestUser;
  let projectId: number;

  beforeAll(async () => {
    server = await startTestServer();
    guest = await server.createUser();
    stranger = await server.createUser();
    const root = api(server.url, server.root.token);
    const created = await root.post('/projects', { name: 'events-probe', visibility: 'private', initialize_with_readme: true });
    projectId = created.body.id;
    await root.post(`/projects/${projectId}/members`, { user_id: guest.id, access_level: 10 });
    expect((await root.post(`/projects/${projectId}/repository/branches`, { branch: 'topic', ref: 'main' })).status).toBe(201);
  });
  afterAll(() => server?.close());

  it('lists pushes newest first with their author and ref, in GitLab shape', async () => {
    const response = await api(server.url, server.root.token).get(`/projects/${projectId}/events?action=pushed&author_id=${server.root.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total')).toBe('1');
    const [event] = response.body;
    expect(event).toMatchObject({
      project_id: projectId,
      action_name: 'pushed new',
      author_id: server.root.id,
      author_username: 'root',
      push_data: { action: 'created', ref_type: 'branch', ref: 'topic', commit_from: null },
    });
    expect(event.push_data.commit_to).toMatch(/^[0-9a-f]{40}$/);
  });

  it('filters by author and by time', async () => {
    const root = api(server.url, server.root.token);
    expect((await root.get(`/projects/${projectId}/events?action=pushed&author_id=${guest.id}`)).body).toEqual([]);
    expect((await root.get(`/projects/${projectId}/events?after=2999-01-01`)).body).toEqual([]);
    expect((await root.get(`/projects/${projectId}/events?after=not-a-date`)).status).toBe(400);
  });

  it('is a 404 for a stranger and a 403 for a Guest, who may not read code', async () => {
    expect((await api(server.url, stranger.token).get(`/projects/${projectId}/events`)).status).toBe(404);
    expect((await api(server.url, guest.token).get(`/projects/${projectId}/events`)).status).toBe(403);
  });
});
