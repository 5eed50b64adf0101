import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page, Route, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { gitCli, startTestServer, type GitCli, type TestServer, type TestUser } from '../../server/src/test-support/server.js';
import { api } from './api.js';
import { launchBrowser, newPage, type LaunchedBrowser } from './browser.js';
import { shot, signInThroughForm } from './flows.js';

/**
 * What the merge widget browser tests (e2e/merge-widget-*.e2e.test.ts) share: one server and
 * browser per file, root signed in, projects pushed with git, and the widget's regions.
 *
 *   const h = mergeWidgetHarness();
 *   it('…', async () => { const repo = await h.createRepo('x'); … });
 */
export const SCREENSHOT_PREFIX = 'merge-widget';

export interface Repo {
  id: number;
  fullPath: string;
  dir: string;
}

export function write(root: string, path: string, content: string): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** A screenshot from the top of the page (the sticky header otherwise lands mid-picture). */
export async function snap(page: Page, state: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, SCREENSHOT_PREFIX, state);
}

/**
 * Holds the page's requests matching `match` until release(), then lets them reach the
 * server unchanged (the moment between a click and the server's answer, made long enough
 * to look at). release() resolves once every held request went on and the route is gone.
 */
export async function holdRequests(page: Page, match: (url: URL) => boolean): Promise<{ release(): Promise<void> }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const passed: Promise<void>[] = [];
  await page.route(match, (route: Route) => {
    const done = gate.then(() => route.continue());
    passed.push(done);
    return done;
  });
  return {
    async release() {
      open();
      await Promise.all(passed);
      await page.unroute(match);
    },
  };
}

const GIT_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C', HOME: '/nonexistent' };

/**
 * Runs git in a project's bare repository on the server, with no hook and no event: a ref
 * moved this way is a change the server is not told about (fixtures only, never user input).
 */
export async function bareGit(server: TestServer, projectId: number, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('git', [`--git-dir=${server.app.services.storage.pathFor(projectId)}`, ...args], { env: GIT_ENV });
  return stdout.trim();
}

/**
 * Commits `files` on top of `from` in the local clone (on a scratch branch, so the clone's
 * branches stay put), copies the commit into the server's bare repository and points
 * refs/heads/<branch> at it there, compare-and-swap, without a push. Returns the commit.
 */
export async function moveBranchBehindTheServersBack(server: TestServer, git: GitCli, repo: Repo, branch: string, files: Record<string, string>, message: string, from = 'main'): Promise<string> {
  const scratch = `scratch-${Date.now()}`;
  const previous = await bareGit(server, repo.id, ['rev-parse', `refs/heads/${branch}`]);
  await git.git(['switch', '--create', scratch, from], { cwd: repo.dir });
  for (const [path, content] of Object.entries(files)) write(repo.dir, path, content);
  await git.git(['add', '--all'], { cwd: repo.dir });
  await git.git(['commit', '-m', message], { cwd: repo.dir });
  const sha = (await git.git(['rev-parse', 'HEAD'], { cwd: repo.dir })).stdout.trim();
  await git.git(['switch', from], { cwd: repo.dir });
  await bareGit(server, repo.id, ['fetch', '--no-tags', repo.dir, `refs/heads/${scratch}`]);
  await bareGit(server, repo.id, ['update-ref', `refs/heads/${branch}`, sha, previous]);
  return sha;
}

export interface MergeWidgetHarness {
  readonly server: TestServer;
  readonly browser: LaunchedBrowser;
  readonly page: Page;
  readonly git: GitCli;
  readonly developer: TestUser;
  rest<R = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: Record<string, unknown>): Promise<R>;
  widget(on?: Page): Locator;
  checks(on?: Page): Locator;
  /** The widget without its live region, which repeats the state's sentence for screen readers. */
  content(on?: Page): Locator;
  /** A project with `main` holding README.md and app.txt (ten lines), pushed with git; `settings` go to PUT /projects/:id. */
  createRepo(path: string, settings?: Record<string, unknown>): Promise<Repo>;
  /** Commits `files` on `branch` (created from `from` when new) and pushes it. */
  commitOn(repo: Repo, branch: string, files: Record<string, string>, message: string, from?: string): Promise<void>;
  openMergeRequest(repo: Repo, source: string, title: string, extra?: Record<string, unknown>): Promise<number>;
  /** The merge request's Overview tab, once the widget has loaded. */
  visit(repo: Repo, iid: number, on?: Page): Promise<Locator>;
  /** Resolves once the widget on `on` (opened with visit) has sent its subscription over its socket. */
  subscribed(on?: Page): Promise<void>;
  /** Waits for the server's mergeability check to settle (the REST status is not checking any more); usable in hooks too. */
  settled(repo: Repo, iid: number): Promise<string>;
}

/** Registers beforeAll/afterAll for a server, a browser and root's signed-in page. */
export function mergeWidgetHarness(): MergeWidgetHarness {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let page: Page;
  let git: GitCli;
  let developer: TestUser;

  const rest = <R = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: Record<string, unknown>) => api<R>(server.url, server.root.token, method, path, body);
  const widget = (on: Page = page) => on.getByRole('region', { name: 'Merge status' });
  const checks = (on: Page = page) => widget(on).getByRole('group', { name: 'Merge checks' });
  const content = (on: Page = page) => widget(on).locator(':scope > :not([aria-live])');

  async function createRepo(path: string, settings: Record<string, unknown> = {}): Promise<Repo> {
    const project = await rest<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: path, path, visibility: 'private' });
    if (Object.keys(settings).length > 0) await rest('PUT', `/projects/${project.id}`, settings);
    const dir = join(git.dir, path);
    mkdirSync(dir, { recursive: true });
    await git.git(['init', '--initial-branch=main'], { cwd: dir });
    write(dir, 'README.md', `# ${path}\n`);
    write(dir, 'app.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    await git.git(['add', '.'], { cwd: dir });
    await git.git(['commit', '-m', 'Start'], { cwd: dir });
    await git.git(['remote', 'add', 'origin', git.repoUrl(project.path_with_namespace)], { cwd: dir });
    await git.git(['push', '--set-upstream', 'origin', 'main'], { cwd: dir });
    return { id: project.id, fullPath: project.path_with_namespace, dir };
  }

  async function commitOn(repo: Repo, branch: string, files: Record<string, string>, message: string, from = 'main'): Promise<void> {
    const exists = (await git.git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd: repo.dir, allowFailure: true })).code === 0;
    await git.git(exists ? ['switch', branch] : ['switch', '--create', branch, from], { cwd: repo.dir });
    for (const [path, content] of Object.entries(files)) write(repo.dir, path, content);
    await git.git(['add', '--all'], { cwd: repo.dir });
    await git.git(['commit', '-m', message], { cwd: repo.dir });
    await git.git(['push', '--set-upstream', 'origin', branch], { cwd: repo.dir });
  }

  async function openMergeRequest(repo: Repo, source: string, title: string, extra: Record<string, unknown> = {}): Promise<number> {
    const created = await rest<{ iid: number }>('POST', `/projects/${repo.id}/merge_requests`, { source_branch: source, target_branch: 'main', title, ...extra });
    return created.iid;
  }

  /** Per page, a promise of the widget's subscription having been sent over its socket (armed by visit). */
  const subscriptions = new WeakMap<Page, Promise<void>>();

  /**
   * Resolves once the page's widget has sent its subscription (graphql-ws `subscribe` for
   * mergeRequestMergeStatusUpdated) over its socket: what the server pushes after that reaches
   * the page without a reload. For the page last opened with visit().
   */
  function subscribed(on: Page = page): Promise<void> {
    const armed = subscriptions.get(on);
    if (!armed) throw new Error('subscribed() needs a page opened with visit()');
    return armed;
  }

  async function visit(repo: Repo, iid: number, on: Page = page): Promise<Locator> {
    subscriptions.set(
      on,
      new Promise<void>((resolve) => {
        const onSocket = (socket: WebSocket) =>
          socket.on('framesent', ({ payload }) => {
            if (typeof payload === 'string' && payload.includes('"subscribe"') && payload.includes('mergeRequestMergeStatusUpdated')) {
              on.off('websocket', onSocket);
              resolve();
            }
          });
        on.on('websocket', onSocket);
      }),
    );
    await on.goto(`/${repo.fullPath}/-/merge_requests/${iid}`);
    await widget(on).waitFor();
    await expect.poll(() => widget(on).getAttribute('aria-busy')).not.toBe('true');
    return content(on);
  }

  async function settled(repo: Repo, iid: number): Promise<string> {
    // a loop of its own, not expect.poll: this runs in beforeAll hooks too
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { detailed_merge_status: status } = await rest<{ detailed_merge_status: string }>('GET', `/projects/${repo.id}/merge_requests/${iid}`);
      if (!['unchecked', 'checking', 'preparing'].includes(status)) return status;
      if (Date.now() > deadline) throw new Error(`merge request !${iid} still ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    git = gitCli({ url: server.url, username: 'root', password: server.root.password });
    developer = await server.createUser({ username: 'dev', name: 'Dana Developer' });
    page = await newPage(browser, server.url);
    page.on('pageerror', (error) => console.error(`[merge-widget] page error: ${error.message}`));
    await signInThroughForm(page, { username: 'root', password: server.root.password });
  });

  afterAll(async () => {
    await git?.close();
    await browser?.close();
    await server?.close();
  });

  return {
    get server() {
      return server;
    },
    get browser() {
      return browser;
    },
    get page() {
      return page;
    },
    get git() {
      return git;
    },
    get developer() {
      return developer;
    },
    rest,
    widget,
    checks,
    content,
    createRepo,
    commitOn,
    openMergeRequest,
    visit,
    subscribed,
    settled,
  };
}
