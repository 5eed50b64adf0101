import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isClientRoute, registerWebApp } from './static.js';

describe('registerWebApp', () => {
  let root: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'trb-static-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log(1);');
    writeFileSync(join(root, 'favicon.svg'), '<svg/>');
    app = Fastify();
    const serve = await registerWebApp(app, root);
    app.setNotFoundHandler((request, reply) => serve(request, reply) ?? reply.status(404).send({ message: '404 Not Found' }));
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves fingerprinted assets as immutable, so a returning browser does not ask again', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log(1);');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves other files for an hour and the app shell of a client route uncached', async () => {
    const favicon = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(favicon.headers['cache-control']).toBe('public, max-age=3600');
    const shell = await app.inject({ method: 'GET', url: '/group/project/-/merge_requests/1' });
    expect(shell.statusCode).toBe(200);
    expect(shell.body).toContain('<div id="root">');
    expect(shell.headers['cache-control']).toBe('no-cache');
  });

  it('sends the app shell, for / and for a client route, with the content security policy and its companions', async () => {
    for (const url of ['/', '/group/project/-/merge_requests/1']) {
      const shell = await app.inject({ method: 'GET', url });
      expect(shell.body).toContain('<div id="root">');
      expect(shell.headers['content-security-policy']).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src * data: blob:; media-src * data: blob:; " +
          "font-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(shell.headers['x-frame-options']).toBe('DENY');
      expect(shell.headers['x-content-type-options']).toBe('nosniff');
      expect(shell.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });

  it('sends files with nosniff and without the app shell’s policy', async () => {
    for (const url of ['/assets/index-abc123.js', '/favicon.svg']) {
      const file = await app.inject({ method: 'GET', url });
      expect(file.statusCode).toBe(200);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['content-security-policy']).toBeUndefined();
    }
  });

  it('answers a missing asset and an API path with 404, not the app shell', async () => {
    expect((await app.inject({ method: 'GET', url: '/assets/gone-000.js' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/v4/nothing' })).statusCode).toBe(404);
    expect(isClientRoute('/group/project.git/info/refs')).toBe(false);
  });
});
