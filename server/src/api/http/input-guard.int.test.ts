import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { startTestServer, type TestServer } from '../../test-support/server.js';

const HUGE_ID = '99999999999999999999999999';
const NUL_TEXT = 'a\u0000b';
/** Query strings every GitLab list and search takes, and the body fields writes take. */
const BAD_QUERY = `search=a%00b&name=a%00b&path=a%00b&title=a%00b&user_id=${HUGE_ID}`;
const BAD_BODY = { name: NUL_TEXT, title: NUL_TEXT, body: NUL_TEXT, description: NUL_TEXT, path: NUL_TEXT, note: NUL_TEXT, user_id: 1e20 };

/**
 * No input reaches the database unchecked, on any route: every route Fastify has registered
 * (the REST API v4, the web app's calls, GraphQL) is sent a NUL byte in its path, query and
 * body and an id beyond the integers ids can be, and answers 400 or 404, never 500.
 */
describe(`bad input on every route (${testDatabaseKind()})`, () => {
  let server: TestServer;
  let project: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    server = await startTestServer();
    const response = await fetch(`${server.url}/api/v4/projects`, {
      method: 'POST',
      headers: { 'private-token': server.root.token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'guarded', visibility: 'public', initialize_with_readme: true }),
    });
    project = (await response.json()) as typeof project;
  });
  afterAll(() => server?.close());

  /** The routes to visit: everything with a method a client sends, minus the static web app and git's own protocol. */
  function routes() {
    return server.app.routes.filter(
      (route) => !['HEAD', 'OPTIONS'].includes(route.method) && !route.url.includes('*') && !/\.git|info\/refs|git-(upload|receive)-pack/.test(route.url),
    );
  }

  const fill = (url: string, value: (param: string) => string) => url.replace(/:(\w+)/g, (_, name: string) => value(name));
  /** A plausible value for a parameter, so a route's own lookups would find something. */
  const real = (name: string) => (name === 'id' ? String(project.id) : /iid|_id$/.test(name) ? '1' : name === 'full_path' ? project.path_with_namespace : 'main');

  async function send(method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = { 'private-token': server.root.token };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    await response.arrayBuffer();
    return response.status;
  }

  it('finds the REST API among the routes', () => {
    const urls = routes().map((route) => route.url);
    expect(urls).toContain('/api/v4/projects/:id');
    expect(urls.filter((url) => url.startsWith('/api/v4/')).length).toBeGreaterThan(100);
  });

  /**
   * Routes whose body is bytes, not parameters: the runner's log chunk is log text whatever it
   * looks like, and an artifacts upload is a multipart file streamed to storage after the job
   * token is checked (a JSON body is never read there).
   */
  const RAW_BODY_ROUTES = ['PATCH /api/v4/jobs/:id/trace', 'POST /api/v4/jobs/:id/artifacts'];

  it('answers 400 or 404, never 500, for a NUL byte and for an out-of-range id anywhere', async () => {
    const failures: string[] = [];
    for (const { method, url } of routes()) {
      const withBody = ['POST', 'PUT', 'PATCH'].includes(method);
      const cases: Array<[string, string, unknown, number[]]> = [
        ['NUL in query and body', `${fill(url, real)}?${BAD_QUERY}`, withBody ? BAD_BODY : undefined, [400]],
      ];
      if (url.includes(':')) {
        cases.push(['NUL in the path', fill(url, () => 'a%00b'), withBody ? {} : undefined, [400]]);
        cases.push(['an out-of-range id in the path', fill(url, () => HUGE_ID), withBody ? {} : undefined, [400, 404]]);
      }
      if (withBody && !RAW_BODY_ROUTES.includes(`${method} ${url}`)) cases.push(['1e20 as an id in the body', fill(url, real), { user_id: 1e20 }, [400]]);
      for (const [what, path, body, expected] of cases) {
        const status = await send(method, path, body);
        if (!expected.includes(status)) failures.push(`${method} ${url}: ${what} answered ${status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses a NUL written as an escape in a GraphQL document or its variables (400), and reads the same query without it', async () => {
    const query = (path: string) => `{ project(fullPath: "${path}") { id } }`;
    expect(await send('POST', '/api/graphql', { query: query('a\\u0000b') })).toBe(400);
    expect(await send('POST', '/api/graphql', { query: 'query($p: ID!) { project(fullPath: $p) { id } }', variables: { p: NUL_TEXT } })).toBe(400);
    const variables = encodeURIComponent(JSON.stringify({ p: NUL_TEXT }));
    expect(await send('GET', `/api/graphql?query=${encodeURIComponent('query($p: ID!) { project(fullPath: $p) { id } }')}&variables=${variables}`)).toBe(400);
    expect(await send('POST', '/api/graphql', { query: query(project.path_with_namespace) })).toBe(200);
  });
});
