import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * The browser harness: Debian's Chromium driven by playwright-core.
 *
 *   const browser = await launchBrowser();
 *   const page = await newPage(browser, server.url);
 *   await signIn(page, { username: 'root', password: server.root.password });
 *   await screenshot(page, 'dashboard');
 *   await browser.close();
 */

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SCREENSHOTS_DIR = join(REPO_ROOT, 'artifacts', 'screenshots');
export const WEB_DIST_INDEX = join(REPO_ROOT, 'web', 'dist', 'index.html');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** $CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const path = env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(`Chromium not found at ${path}. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.`);
  }
  return path;
}

/** The server serves web/dist; without it every page is a 404. Fail with the reason instead. */
export function assertWebAppBuilt(): void {
  if (process.env.TRIBUTARY_WEB_BUILD_FAILED === '1') {
    throw new Error('The web app build failed (`npm run build -w web`, see the output of `npm test` above), so there is no current web app to test.');
  }
  if (!existsSync(WEB_DIST_INDEX)) {
    throw new Error(`The web app is not built (${WEB_DIST_INDEX} is missing). Run \`npm run build -w web\`; \`npm test\` builds it when it can, see its output for build errors.`);
  }
}

export interface LaunchedBrowser {
  browser: Browser;
  /** A fresh context (own cookies and storage) with the default viewport and timeouts. */
  newContext(options?: { baseURL?: string }): Promise<BrowserContext>;
  close(): Promise<void>;
}

/**
 * Launches Chromium with a fresh user-data directory of its own, removed again by `close()`.
 */
async function launchChromium(headless: boolean): Promise<{ browser: Browser; close(): Promise<void> }> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'trchrome-'));
  // launchPersistentContext is Playwright's only way to choose the profile directory;
  // its context is used for nothing but to keep the browser up, tests get new contexts.
  const persistent = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    headless,
    args: CHROMIUM_ARGS,
    env: { ...process.env, TZ: 'UTC', LANG: 'en_US.UTF-8' },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const browser = persistent.browser();
  if (!browser) {
    await persistent.close();
    rmSync(userDataDir, { recursive: true, force: true });
    throw new Error('Chromium started without a browser handle');
  }
  let closing: Promise<void> | undefined;
  return {
    browser,
    close() {
      closing ??= (async () => {
        await persistent.close().catch(() => undefined);
        rmSync(userDataDir, { recursive: true, force: true, maxRetries: 3 });
      })();
      return closing;
    },
  };
}

function newContextOf(browser: Browser) {
  return async (contextOptions: { baseURL?: string } = {}): Promise<BrowserContext> => {
    const context = await browser.newContext({
      baseURL: contextOptions.baseURL,
      viewport: { width: 1280, height: 800 },
      locale: 'en-US',
      timezoneId: 'UTC',
    });
    context.setDefaultTimeout(15_000);
    context.setDefaultNavigationTimeout(30_000);
    return context;
  };
}

/** The key under which the e2e project's global setup provides the shared Chromium's endpoint. */
export const SHARED_BROWSER_KEY = 'tributaryBrowserWsEndpoint';

declare module 'vitest' {
  export interface ProvidedContext {
    tributaryBrowserWsEndpoint: string;
  }
}

/** Whether test files share one headless Chromium: yes, unless headed or TRIBUTARY_E2E_SHARED_BROWSER=0. */
export function sharedBrowserWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TRIBUTARY_E2E_HEADED !== '1' && env.TRIBUTARY_E2E_SHARED_BROWSER !== '0';
}

/** The shared Chromium's endpoint, when running under Vitest with the e2e global setup (see browser-global-setup.ts). */
async function sharedEndpoint(): Promise<string | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  try {
    return inject(SHARED_BROWSER_KEY) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * One connection to the shared Chromium per process: with `isolate: false` (the e2e project)
 * every file of the run reuses it.
 */
let connection: Promise<Browser> | undefined;

function connectShared(endpoint: string): Promise<Browser> {
  const current = connection;
  if (current) {
    return current.then((browser) => {
      if (browser.isConnected()) return browser;
      if (connection === current) connection = undefined;
      return connectShared(endpoint);
    });
  }
  const connecting = chromium.connect(endpoint);
  connection = connecting;
  connecting.catch(() => {
    if (connection === connecting) connection = undefined;
  });
  return connecting;
}

/**
 * A browser for a test file: the run's shared headless Chromium (see browser-global-setup.ts)
 * or, headed, outside Vitest or with TRIBUTARY_E2E_SHARED_BROWSER=0, a Chromium of its own.
 * Either way the file gets fresh contexts (own cookies and storage), and `close()` closes the
 * contexts it made, and its own Chromium, never the shared one.
 */
export async function launchBrowser(options: { headless?: boolean; requireWebApp?: boolean } = {}): Promise<LaunchedBrowser> {
  if (options.requireWebApp !== false) assertWebAppBuilt();
  const headless = options.headless ?? process.env.TRIBUTARY_E2E_HEADED !== '1';
  const endpoint = headless && sharedBrowserWanted() ? await sharedEndpoint() : undefined;
  let browser = endpoint ? await connectShared(endpoint).catch((error: Error) => {
    // the shared browser is gone (it crashed): this file goes on with one of its own
    console.warn(`[e2e] the shared Chromium cannot be reached (${error.message.split('\n')[0]}); launching one for this file`);
    return undefined;
  }) : undefined;
  const own = browser ? undefined : await launchChromium(headless);
  browser ??= own!.browser;
  const newContext = newContextOf(browser);
  const contexts = new Set<BrowserContext>();
  let closing: Promise<void> | undefined;
  return {
    browser,
    async newContext(contextOptions = {}) {
      const context = await newContext(contextOptions);
      contexts.add(context);
      context.once('close', () => contexts.delete(context));
      return context;
    },
    close() {
      closing ??= (async () => {
        await Promise.all([...contexts].map((context) => context.close().catch(() => undefined)));
        await own?.close();
      })();
      return closing;
    },
  };
}

/** A page in a new context whose relative URLs resolve against `baseURL` (the test server). */
export async function newPage(browser: LaunchedBrowser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

/** Saves a screenshot (of the whole page unless `fullPage` is false) to artifacts/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const safe = name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'screenshot';
  const path = join(SCREENSHOTS_DIR, `${safe}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}

/**
 * Signs in through the sign-in page, as a person would, and waits until the
 * app has left it. `page` must have a baseURL (see newPage) or pass `url`.
 */
export async function signIn(page: Page, credentials: { username: string; password: string }, options: { url?: string } = {}): Promise<void> {
  await page.goto(options.url ? new URL('/users/sign_in', options.url).toString() : '/users/sign_in');
  await page.getByLabel('Username or primary email').fill(credentials.username);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/users/sign_in'));
}
