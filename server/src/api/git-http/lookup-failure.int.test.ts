import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { startTestServer, type TestServer } from '../../test-support/server.js';

/**
 * git over HTTP: only "not found" reads as not found. A failure of the project lookup itself
 * (the database down) answers 500, never the 404/401 of a missing project, so git clients
 * and operators see an outage and not a vanished repository.
 */
describe(`git HTTP project lookup failures (${testDatabaseKind()})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('answers 500 when the lookup fails, and 404 when the project is missing', async () => {
    const auth = { authorization: `Basic ${Buffer.from(`root:${server.root.token}`).toString('base64')}` };
    const infoRefs = (path: string) => fetch(`${server.url}/${path}.git/info/refs?service=git-upload-pack`, { headers: auth });
    expect((await infoRefs('root/nothing-here')).status).toBe(404);

    const projects = server.app.services.projects;
    const find = projects.find;
    projects.find = async () => {
      throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    };
    try {
      expect((await infoRefs('root/nothing-here')).status).toBe(500);
    } finally {
      projects.find = find;
    }
  });
});
