import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/src/test-support/server.js';
import { launchBrowser, newPage, screenshot, signIn, type LaunchedBrowser } from './browser.js';

/** The browser harness's own smoke test: Chromium signs in to a real server. */
describe('browser harness', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs in through the sign-in page and takes a screenshot', async () => {
    const page = await newPage(browser, server.url);
    await signIn(page, { username: 'root', password: server.root.password });
    expect(new URL(page.url()).pathname).not.toMatch(/^\/users\/sign_in/);
    const path = await screenshot(page, 'harness-signed-in');
    expect(existsSync(path)).toBe(true);
    await page.context().close();
  });

  it('keeps contexts apart: a new context is signed out', async () => {
    const page = await newPage(browser, server.url);
    const response = await page.request.get('/-/session');
    expect(response.status()).toBe(401);
    await page.context().close();
  });
});
