import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config.js';
import { PID_FILE } from '../src/platform/process-lock.js';
import { startServer } from '../src/server.js';
import { testDatabaseKind } from '../src/test-support/database.js';
import { seedPgliteDir } from '../src/test-support/pglite-template.js';
import { createTestDatabase, freePort } from '../src/test-support/postgres-cluster.js';
import { startServerOn } from '../src/test-support/cli.js';

describe(`starting the server (${testDatabaseKind()})`, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('gives back the data directory and the database when a start fails half way (its port is taken)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trstart-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const database = testDatabaseKind() === 'postgres' ? await createTestDatabase() : undefined;
    if (database) cleanups.push(() => database.drop());
    else await seedPgliteDir(join(dataDir, 'pglite'));

    const taken: Server = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const config = loadConfig({}, { dataDir, databaseUrl: database?.url, host: '127.0.0.1', port, externalUrl: `http://127.0.0.1:${port}`, logLevel: 'silent' });
    await expect(startServer(config)).rejects.toThrow(/EADDRINUSE|address already in use/);

    // Nothing of the failed start holds on: the data directory is free, and the next start serves.
    expect(existsSync(join(dataDir, PID_FILE))).toBe(false);
    const next = await startServerOn(dataDir, database?.url);
    cleanups.push(() => next.close());
    const response = await fetch(`${next.url}/api/v4/version`);
    expect(response.status).toBe(200);
  });
});
