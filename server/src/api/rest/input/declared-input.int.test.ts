import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startTestServer, type TestServer } from '../../../test-support/server.js';
import { openApiPath } from './openapi.js';

type Operation = { parameters: Array<{ name: string; in: string; required?: boolean }>; requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> }; 'x-input-declared'?: boolean };

/**
 * Declared input over HTTP: bracket parameters parsed by qs reach the routes, bad input is Grape's
 * 400 `{"error": …}`, and GET /api/v4/openapi.json describes every registered REST route.
 */
describe(`declared REST input and the OpenAPI description (${testDatabaseKind()})`, () => {
  let server: TestServer;
  let document: { openapi: string; servers: Array<{ url: string }>; paths: Record<string, Record<string, Operation>> };
  let project: { id: number };

  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { 'private-token': server.root.token };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${server.url}/api/v4${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as any };
  };

  beforeAll(async () => {
    server = await startTestServer();
    project = (await call('POST', '/projects', { name: 'declared', visibility: 'private' })).body;
    const response = await fetch(`${server.url}/api/v4/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    document = JSON.parse(await response.text());
  });
  afterAll(() => server?.close());

  const restRoutes = () => server.app.routes.filter((route) => route.url.startsWith('/api/v4/') && !['HEAD', 'OPTIONS'].includes(route.method));

  it('reads bracket arrays, comma lists and hashes from the query string', async () => {
    await call('POST', `/projects/${project.id}/labels`, { name: 'a', color: '#123456' });
    await call('POST', `/projects/${project.id}/labels`, { name: 'b', color: '#123456' });
    for (const query of ['labels[]=a&labels[]=b', 'labels=a,b', 'labels=%5B%22a%22%2C%22b%22%5D', 'not[labels][]=a&not[milestone]=v1', 'not[labels]=a,b']) {
      const listed = await call('GET', `/projects/${project.id}/merge_requests?${query}`);
      expect(listed.status, query).toBe(200);
    }
    const page = await call('GET', `/projects/${project.id}/labels?per_page=1&page=2`);
    expect(page.body.map((label: { name: string }) => label.name)).toEqual(['b']);
  });

  it('answers Grape’s 400 {"error": …} for input that does not match the schema, and changes nothing', async () => {
    expect(await call('GET', `/projects/${project.id}/labels?page=1e3`)).toEqual({ status: 400, body: { error: 'page is invalid' } });
    expect(await call('GET', `/projects/${project.id}/merge_requests?state=open&iids[]=x`)).toEqual({ status: 400, body: { error: 'state does not have a valid value, iids is invalid' } });
    expect(await call('POST', `/projects/${project.id}/labels`, { color: '#123456', priority: 1.5 })).toEqual({ status: 400, body: { error: 'name is missing, priority is invalid' } });
    expect(await call('PUT', `/projects/${project.id}/merge_requests/1`, { squash: 'maybe' })).toEqual({ status: 400, body: { error: 'squash is invalid' } });
    expect((await call('GET', `/projects/${project.id}/labels`)).body).toHaveLength(2);
  });

  it('answers 404 for path ids that no record can have', async () => {
    expect((await call('GET', '/users/99999999999999999999')).status).toBe(404);
    expect((await call('GET', '/users/abc')).body).toEqual({ message: '404 User Not Found' });
    expect((await call('GET', `/projects/${project.id}/merge_requests/0`)).body).toEqual({ message: '404 Merge Request Not Found' });
    expect((await call('GET', '/projects/99999999999999999999')).status).toBe(404);
  });

  it('takes no prototype keys from a query string', async () => {
    const response = await call('GET', `/projects/${project.id}/labels?__proto__[polluted]=1&constructor[prototype][polluted]=1`);
    expect(response.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('is OpenAPI 3 JSON served under the API prefix', () => {
    expect(document.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(document.servers).toEqual([{ url: '/api/v4' }]);
  });

  it('lists every registered REST route with its path parameters, and every route declares its input', () => {
    const missing: string[] = [];
    const undeclared: string[] = [];
    for (const route of restRoutes()) {
      const { path, params } = openApiPath(route.url, '/api/v4');
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      if (!operation) {
        missing.push(`${route.method} ${route.url}`);
        continue;
      }
      if (operation['x-input-declared'] === false) undeclared.push(`${route.method} ${route.url}`);
      const pathParams = operation.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
      expect(pathParams, `${route.method} ${route.url}`).toEqual(params);
    }
    expect(missing).toEqual([]);
    expect(undeclared).toEqual([]);
  });

  it('shows query parameters of reads and the body of writes, with what is required', () => {
    const list = document.paths['/projects/{id}/merge_requests']!.get!;
    expect(list.parameters.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['id', 'state', 'labels', 'page', 'per_page']));
    const create = document.paths['/projects/{id}/labels']!.post!;
    const body = create.requestBody!.content['application/json']!.schema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['name', 'color', 'description', 'priority']));
    expect(body.required).toContain('name');
  });
});
