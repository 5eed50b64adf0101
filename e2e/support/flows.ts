import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { GitCli } from '../../server/src/test-support/server.js';
import { screenshot } from './browser.js';

/**
 * What a person does in the web app, as small named steps for the browser tests.
 * Every step finds elements by role and accessible name and ends by waiting for
 * the visible state it leads to.
 */

/** Saves artifacts/screenshots/<test>-<state>.png, of the whole page unless `fullPage` is false. */
export function shot(page: Page, test: string, state: string, options: { fullPage?: boolean } = {}): Promise<string> {
  return screenshot(page, `${test}-${state}`, options);
}

/** Signs in through the sign-in form and waits for the signed-in header. */
export async function signInThroughForm(page: Page, credentials: { username: string; password: string }): Promise<void> {
  await page.goto('/users/sign_in');
  await page.getByLabel('Username or primary email').fill(credentials.username);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: /^User menu for / }).waitFor();
}

/** `/groups/new`: creates a top-level private group; returns its path once its page shows. */
export async function createGroupThroughUI(page: Page, name: string): Promise<string> {
  await page.goto('/groups/new');
  await page.getByLabel('Group name').fill(name);
  const path = await page.getByLabel('Group URL').inputValue();
  expect(path).not.toBe('');
  await page.getByRole('button', { name: 'Create group' }).click();
  await page.waitForURL((url) => url.pathname === `/${path}`);
  await page.getByRole('heading', { level: 1, name }).waitFor();
  return path;
}

export type VisibilityLabel = 'Private' | 'Internal' | 'Public';

/**
 * `/projects/new`: a blank project (no README, so a push can start its history)
 * in the namespace whose URL prefix is `<origin>/<namespacePath>/`. Returns the
 * project's full path once its page shows.
 */
export async function createProjectThroughUI(
  page: Page,
  options: { name: string; namespacePath: string; visibility?: VisibilityLabel; readme?: boolean },
): Promise<string> {
  await page.goto('/projects/new');
  await page.getByLabel('Project name').fill(options.name);
  const origin = new URL(page.url()).origin;
  await page.getByLabel('Project URL').selectOption({ label: `${origin}/${options.namespacePath}/` });
  const slug = await page.getByLabel('Project slug').inputValue();
  expect(slug).not.toBe('');
  const visibility = page.getByRole('radio', { name: options.visibility ?? 'Private' });
  await visibility.check();
  await expect.poll(() => visibility.isChecked()).toBe(true);
  const readme = page.getByRole('checkbox', { name: 'Initialize repository with a README' });
  await readme.setChecked(options.readme ?? false);
  await page.getByRole('button', { name: 'Create project' }).click();
  const fullPath = `${options.namespacePath}/${slug}`;
  await page.waitForURL((url) => url.pathname === `/${fullPath}`);
  await page.getByRole('heading', { level: 1, name: options.name }).waitFor();
  return fullPath;
}

/** The files of the fixture repository's default branch. */
export const FIXTURE = {
  readmeHeading: 'Fixture project',
  /** A line of src/app.ts to look for in the file view. */
  appLine: "export function greet(name: string): string {",
  mainCommitTitle: 'Add the greeting app',
  branch: 'feature/extra',
  /** A file that only `FIXTURE.branch` has. */
  branchOnlyFile: 'EXTRA.md',
  branchCommitTitle: 'Add notes on the feature branch',
};

function write(root: string, path: string, content: string): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/**
 * Creates a small repository in `<git.dir>/<dir>` (README.md, src/app.ts,
 * docs/guide/intro.md; a second branch `feature/extra` with EXTRA.md) and pushes
 * both branches to `cloneUrl` with the real git client and `git`'s credentials.
 */
export async function pushFixtureRepo(git: GitCli, cloneUrl: string, dir = 'fixture'): Promise<void> {
  const root = join(git.dir, dir);
  mkdirSync(root, { recursive: true });
  await git.git(['init', '--initial-branch=main'], { cwd: root });
  write(root, 'README.md', `# ${FIXTURE.readmeHeading}\n\nA small repository pushed by the browser tests.\n`);
  write(
    root,
    'src/app.ts',
    [
      '// The greeting app.',
      'const PREFIX = "Hello";',
      '',
      `${FIXTURE.appLine}`,
      '  return `${PREFIX}, ${name}!`;',
      '}',
      '',
    ].join('\n'),
  );
  write(root, 'docs/guide/intro.md', '# Introduction\n\nNested two levels down.\n');
  await git.git(['add', '.'], { cwd: root });
  await git.git(['commit', '-m', FIXTURE.mainCommitTitle], { cwd: root });
  await git.git(['switch', '--create', FIXTURE.branch], { cwd: root });
  write(root, FIXTURE.branchOnlyFile, '# Extra\n\nOnly on the feature branch.\n');
  await git.git(['add', '.'], { cwd: root });
  await git.git(['commit', '-m', FIXTURE.branchCommitTitle], { cwd: root });
  await git.git(['switch', 'main'], { cwd: root });
  await git.git(['remote', 'add', 'origin', cloneUrl], { cwd: root });
  await git.git(['push', '--set-upstream', 'origin', 'main', FIXTURE.branch], { cwd: root });
}

/**
 * Resolves once the page has drawn `frames` frames in a row without its window scrolling:
 * a smooth scroll has ended and what follows scrolling (intersection observers, the state they
 * set, the render of that state) has had its frames. Waits for frames, not for a time.
 */
export async function scrollSettled(page: Page, frames = 10): Promise<void> {
  await page.evaluate(
    (still) =>
      new Promise<void>((resolve) => {
        let last = window.scrollY;
        let count = 0;
        const step = () => {
          if (window.scrollY === last) count += 1;
          else [last, count] = [window.scrollY, 0];
          if (count >= still) resolve();
          else requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
    frames,
  );
}

/**
 * Resolves after the page has run its pending tasks and drawn `frames` more frames: a click
 * handler, the state it set and any request it would start have all happened by then.
 */
export async function pageSettled(page: Page, frames = 2): Promise<void> {
  await page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        let left = count;
        const step = () => (--left <= 0 ? setTimeout(resolve, 0) : requestAnimationFrame(step));
        requestAnimationFrame(step);
      }),
    frames,
  );
}
