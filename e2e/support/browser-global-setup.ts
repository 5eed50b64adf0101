import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, chromiumPath, SHARED_BROWSER_KEY, sharedBrowserWanted } from './browser.js';

/**
 * Global setup of the e2e project: one headless Chromium for the whole run, launched here
 * (in Vitest's main process, which also closes it at the end) and reached by every test file
 * through its WebSocket endpoint (`launchBrowser()` connects to it). A launch costs 2-3 s and
 * its shutdown about 1 s on a busy machine; once per run instead of once per file.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!sharedBrowserWanted()) return undefined;
  const started = Date.now();
  const server = await chromium.launchServer({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
    env: { ...process.env, TZ: 'UTC', LANG: 'en_US.UTF-8' },
  });
  project.provide(SHARED_BROWSER_KEY, server.wsEndpoint());
  const took = Date.now() - started;
  if (took > 500) console.log(`[e2e] shared Chromium ready in ${took} ms`);
  return async () => {
    await server.close();
  };
}
