import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { startTestServer, type TestServer } from '../../test-support/server.js';

/** GitLab's POST /-/users/callouts and the list the web app reads. */
describe(`user callouts (${testDatabaseKind()})`, () => {
  let server: TestServer;
  const call = (method: string, token: string | null, body?: unknown, contentType = 'application/json') =>
    fetch(`${server.url}/-/users/callouts`, {
      method,
      headers: { ...(token ? { 'private-token': token } : {}), ...(body === undefined ? {} : { 'content-type': contentType }) },
      body: body === undefined ? undefined : contentType === 'application/json' ? JSON.stringify(body) : String(body),
    });

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('dismisses a hint for the caller only, again without a second row, as JSON or a form', async () => {
    const user = await server.createUser();
    const other = await server.createUser();
    expect(await (await call('GET', user.token)).json()).toEqual({ callouts: [] });
    const first = await call('POST', user.token, { feature_name: 'suggest_pipeline' });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ feature_name: 'suggest_pipeline' });
    expect((await call('POST', user.token, 'feature_name=suggest_pipeline', 'application/x-www-form-urlencoded')).status).toBe(200);
    const listed = (await (await call('GET', user.token)).json()) as { callouts: { feature_name: string }[] };
    expect(listed.callouts.map((c) => c.feature_name)).toEqual(['suggest_pipeline']);
    expect(await (await call('GET', other.token)).json()).toEqual({ callouts: [] });
  });

  it('refuses an unknown feature name (400, nothing stored) and an anonymous caller (401)', async () => {
    const user = await server.createUser();
    const refused = await call('POST', user.token, { feature_name: 'not_a_hint' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: { feature_name: ['does not have a valid value'] } });
    expect((await call('POST', user.token, {})).status).toBe(400);
    expect(await (await call('GET', user.token)).json()).toEqual({ callouts: [] });
    expect((await call('GET', null)).status).toBe(401);
    expect((await call('POST', null, { feature_name: 'suggest_pipeline' })).status).toBe(401);
  });
});
