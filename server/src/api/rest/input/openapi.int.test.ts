import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startTestServer, type TestServer } from '../../../test-support/server.js';
import { openApiPath } from './openapi.js';

type Operation = { parameters: Array<{ name: string; in: string; required?: boolean }>; requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> }; 'x-input-declared'?: boolean };

/** GET /api/v4/openapi.json: the OpenAPI description built from every registered REST route's declared input. */
describe(`the OpenAPI description (${testDatabaseKind()})`, () => {
  let server: TestServer;
  let document: { openapi: string; servers: Array<{ url: string }>; paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    server = await startTestServer();
    const response = await fetch(`${server.url}/api/v4/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    document = JSON.parse(await response.text());
  });
  afterAll(() => server?.close());

  const restRoutes = () => server.app.routes.filter((route) => route.url.startsWith('/api/v4/') && !['HEAD', 'OPTIONS'].includes(route.method));

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
