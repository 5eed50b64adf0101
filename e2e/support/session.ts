import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { gitCli, startTestServer, type GitCli, type TestServer, type TestUser } from '../../server/src/test-support/server.js';
import { api } from './api.js';
import { launchBrowser, newPage, SCREENSHOTS_DIR, type LaunchedBrowser } from './browser.js';
import { signInThroughForm } from './flows.js';

/**
 * What most browser test files start with: one server and one Chromium for the file, a REST
 * helper for arranging state, git as root, and a page signed in through the form once the
 * state is there. Registers its own beforeAll/afterAll; a file's own beforeAll runs after it.
 *
 *   const session = browserSession('review');
 *   beforeAll(async () => {
 *     ({ project, iid } = await createMergeRequestFixture(session, { path: 'review', title: 'Please review', members: [dana] }));
 *     page = await session.signIn(dana);
 *   });
 */

export type Rest = <R = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: Record<string, unknown>, token?: string) => Promise<R>;

export interface BrowserSession {
  readonly server: TestServer;
  readonly browser: LaunchedBrowser;
  /** The stock git client with root's credentials. */
  readonly git: GitCli;
  /** A REST API v4 call that must answer 2xx, as root unless another token is given. */
  rest: Rest;
  /** Opens a page in a new context, its errors logged under the file's name. */
  openPage(): Promise<Page>;
  /** Opens a page and signs `user` in through the form; root by default. */
  signIn(user?: { username: string; password: string }): Promise<Page>;
  /** Saves a picture of `target` (an element, or the viewport of a page) as artifacts/screenshots/<name>-<state>.png. */
  snap(state: string, target: Locator | Page): Promise<void>;
}

export function browserSession(name: string): BrowserSession {
  let server: TestServer | undefined;
  let browser: LaunchedBrowser | undefined;
  let git: GitCli | undefined;
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the browser session has no ${what} yet`);
    return value;
  };

  const rest: Rest = (method, path, body, token) => {
    const running = started(server, 'server');
    return api(running.url, token ?? running.root.token, method, path, body);
  };

  async function openPage(): Promise<Page> {
    const page = await newPage(started(browser, 'browser'), started(server, 'server').url);
    page.on('pageerror', (error) => console.error(`[${name}] page error: ${error.message}`));
    return page;
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    git = gitCli({ url: server.url, username: 'root', password: server.root.password });
  });

  afterAll(async () => {
    await git?.close();
    await browser?.close();
    await server?.close();
  });

  return {
    get server() {
      return started(server, 'server');
    },
    get browser() {
      return started(browser, 'browser');
    },
    get git() {
      return started(git, 'git client');
    },
    rest,
    openPage,
    async signIn(user) {
      const opened = await openPage();
      await signInThroughForm(opened, user ?? { username: 'root', password: started(server, 'server').root.password });
      return opened;
    },
    async snap(state, target) {
      mkdirSync(SCREENSHOTS_DIR, { recursive: true });
      await target.screenshot({ path: join(SCREENSHOTS_DIR, `${name}-${state}.png`) });
    },
  };
}

export interface MergeRequestFixture {
  project: { id: number; path_with_namespace: string };
  iid: number;
  /** `/projects/:id/merge_requests/:iid` */
  mrPath: string;
  /** The local clone, on the source branch. */
  dir: string;
}

/** Writes `file` in the clone `dir` and commits everything as `message`. */
export async function commitFile(git: GitCli, dir: string, file: string, content: string, message: string): Promise<void> {
  const path = join(dir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  await git.git(['add', '.'], { cwd: dir });
  await git.git(['commit', '-m', message], { cwd: dir });
}

/**
 * A project `path` (root the owner, `members` added as Developers) whose `main` holds a
 * README and whose `feature` branch adds a.txt, both pushed with git, and root's merge
 * request from `feature` into `main` titled `title` (described as `description`).
 */
export async function createMergeRequestFixture(
  session: BrowserSession,
  options: { path: string; title: string; description?: string; visibility?: 'private' | 'internal' | 'public'; members?: TestUser[] },
): Promise<MergeRequestFixture> {
  const { git, rest } = session;
  const project = await rest<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: options.path, path: options.path, visibility: options.visibility ?? 'private' });
  for (const member of options.members ?? []) await rest('POST', `/projects/${project.id}/members`, { user_id: member.id, access_level: 30 });
  const dir = join(git.dir, options.path);
  mkdirSync(dir, { recursive: true });
  await git.git(['init', '--initial-branch=main'], { cwd: dir });
  await commitFile(git, dir, 'README.md', `# ${options.path}\n`, 'Start');
  await git.git(['remote', 'add', 'origin', git.repoUrl(project.path_with_namespace)], { cwd: dir });
  await git.git(['push', '--set-upstream', 'origin', 'main'], { cwd: dir });
  await git.git(['switch', '--create', 'feature'], { cwd: dir });
  await commitFile(git, dir, 'a.txt', 'a\n', 'Add a');
  await git.git(['push', '--set-upstream', 'origin', 'feature'], { cwd: dir });
  const { iid } = await rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, {
    source_branch: 'feature',
    target_branch: 'main',
    title: options.title,
    description: options.description,
  });
  return { project, iid, mrPath: `/projects/${project.id}/merge_requests/${iid}`, dir };
}
