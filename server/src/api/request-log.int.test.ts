import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_PATHS } from '../platform/logger.js';
import { testDatabaseKind } from '../test-support/database.js';
import { startTestServer, type TestServer } from '../test-support/server.js';

/**
 * The one request line per request (app.ts onResponse): the URL as the client sent it (not
 * as rewritten for routing), with secrets in the query string redacted, and no header secret.
 */
describe(`the request log (${testDatabaseKind()})`, () => {
  let server: TestServer;
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });

  beforeAll(async () => {
    server = await startTestServer({ logger: pino({ level: 'info', redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' } }, sink) });
  });
  afterAll(async () => {
    await server?.close();
  });

  const requestLine = async (path: string) => {
    await expect.poll(() => lines.some((line) => line.msg === 'request' && String(line.url).startsWith(path.split('?')[0]!))).toBe(true);
    return lines.find((line) => line.msg === 'request' && String(line.url).startsWith(path.split('?')[0]!))!;
  };

  it('never writes a token from the query string or the headers', async () => {
    const secret = 'glpat-never-in-the-log-0123456789';
    await fetch(`${server.url}/api/v4/version?private_token=${secret}&per_page=1`);
    await fetch(`${server.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': secret } });
    const line = await requestLine('/api/v4/version');
    expect(line.url).toBe('/api/v4/version?private_token=[REDACTED]&per_page=1');
    await requestLine('/api/v4/user');
    expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it('logs a project-path URL as the client sent it, not as routed', async () => {
    const path = `/root/no-such-project/-/merge_requests/1/widget.json`;
    const response = await fetch(`${server.url}${path}`, { headers: { 'PRIVATE-TOKEN': server.root.token } });
    expect(response.status).toBe(404);
    const line = await requestLine(path);
    expect(line).toMatchObject({ url: path, status: 404 });
  });
});
