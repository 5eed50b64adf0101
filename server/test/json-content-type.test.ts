import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../src/test-support/database.js';
import { startTestServer, type TestServer } from '../src/test-support/server.js';
import { http } from '../src/test-support/http.js';

/**
 * GitLab's REST API answers JSON as exactly `application/json`; python-gitlab before 3.14
 * (Debian 12's) compares the header as a string and refuses anything else. GraphQL is a Rails
 * controller at GitLab and keeps `application/json; charset=utf-8`.
 */
describe(`JSON Content-Type as GitLab sends it (${testDatabaseKind()})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const call = (method: string, path: string, options: Parameters<typeof http>[3] = {}) => http(server.url, method, path, options);

  it('is exactly application/json on every REST answer: routes, lists, errors, refusals and 404s', async () => {
    const token = server.root.token;
    const readOnly = await server.createToken(server.root.id, { scopes: ['read_api'] });
    const answers = await Promise.all([
      call('GET', '/api/v4/version'),
      call('GET', '/api/v4/user', { token }),
      call('GET', '/api/v4/projects', { token }),
      call('POST', '/api/v4/projects', { token, json: { name: 'ct-probe' } }),
      call('GET', '/api/v4/user'), // 401
      call('GET', '/api/v4/projects/999999', { token }), // domain 404
      call('GET', '/api/v4/no/such/route', { token }), // router 404
      call('POST', '/api/v4/projects', { token, body: '{not json', headers: { 'content-type': 'application/json' } }), // 400
      call('POST', '/api/v4/projects', { token: readOnly, json: { name: 'x' } }), // 403 insufficient_scope
      call('POST', '/api/v4/projects', { token, json: {} }), // 400 validation
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 201, 401, 404, 404, 400, 403, 400]);
    for (const answer of answers) expect(answer.headers.get('content-type')).toBe('application/json');
  });

  it('keeps the charset on GraphQL, as GitLab (a Rails controller) sends it', async () => {
    const answer = await call('POST', '/api/graphql', { token: server.root.token, json: { query: '{ currentUser { username } }' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});
