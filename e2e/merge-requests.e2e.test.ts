import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GitCli } from '../server/src/test-support/server.js';
import { createProjectThroughUI, shot, signInThroughForm } from './support/flows.js';
import { solidPng } from './support/png.js';
import { browserSession } from './support/session.js';

/**
 * The merge request scenario, as root, start to end: push a repository with a
 * feature branch (a text change, a new file, a rename and a replaced image), open a
 * merge request for it, read its changes, push a second version and compare the two
 * versions, then close and reopen it, and filter the project's list. The steps share one page and run in order.
 */
const T = 'merge-requests';

const MR = {
  title: 'Greet in two languages',
  source: 'feature',
  target: 'main',
  changedFile: 'src/app.ts',
  changedLine: 'const PREFIX = "Hallo";',
  addedFile: 'src/farewell.ts',
  renamedFrom: 'docs/setup.md',
  renamedTo: 'docs/install.md',
  image: 'logo.png',
  secondCommitTitle: 'Add a second greeting',
  secondVersionLine: 'export const SECOND = "Bonjour";',
};

function write(root: string, path: string, content: string | Buffer): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** `main` with four files, `feature` one commit ahead changing, adding, renaming and replacing. */
async function pushMergeRequestFixture(git: GitCli, cloneUrl: string, root: string): Promise<void> {
  mkdirSync(root, { recursive: true });
  await git.git(['init', '--initial-branch=main'], { cwd: root });
  write(root, 'README.md', '# Merge request fixture\n');
  write(root, MR.changedFile, ['// The greeting app.', 'const PREFIX = "Hello";', '', 'export function greet(name: string): string {', '  return `${PREFIX}, ${name}!`;', '}', ''].join('\n'));
  write(root, MR.renamedFrom, '# Setup\n\nRun the app with `node app.js`.\nIt needs no configuration.\n');
  write(root, MR.image, solidPng(24, 24, [220, 40, 40]));
  await git.git(['add', '.'], { cwd: root });
  await git.git(['commit', '-m', 'Start the greeting app'], { cwd: root });

  await git.git(['switch', '--create', MR.source], { cwd: root });
  write(root, MR.changedFile, ['// The greeting app.', MR.changedLine, '', 'export function greet(name: string): string {', '  return `${PREFIX}, ${name}!`;', '}', ''].join('\n'));
  write(root, MR.addedFile, 'export const FAREWELL = "Goodbye";\n');
  renameSync(join(root, MR.renamedFrom), join(root, MR.renamedTo));
  write(root, MR.image, solidPng(32, 32, [40, 90, 220]));
  await git.git(['add', '--all'], { cwd: root });
  await git.git(['commit', '-m', MR.title], { cwd: root });

  await git.git(['remote', 'add', 'origin', cloneUrl], { cwd: root });
  await git.git(['push', '--set-upstream', 'origin', MR.target, MR.source], { cwd: root });
}

/**
 * `shot` for the image views. A full-page screenshot of a page taller than the viewport
 * briefly resizes the window (to 1×1, then the page's size); the virtualised diff list then
 * unmounts the image's row and mounts it again, which resets its view mode to 2-up (seen
 * with a MutationObserver). Making the viewport as tall as the page first avoids that resize.
 */
async function shotKeepingRows(page: Page, state: string): Promise<void> {
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: viewport.width, height: await page.evaluate(() => document.documentElement.scrollHeight) });
  // The list renders the rows the taller window shows in the frames after the resize.
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await shot(page, T, state);
  await page.setViewportSize(viewport);
}

describe('merge requests: create, review changes and versions, close and reopen', () => {
  const session = browserSession(T);
  const { rest } = session;
  let page: Page;
  let repo = '';
  let projectPath = '';
  let projectId = 0;
  let iid = 0;

  beforeAll(async () => {
    page = await session.openPage();
  });

  const changes = () => page.getByRole('region', { name: 'Changes' });

  it('pushes a feature branch with git and creates a merge request for it through the form', async () => {
    const { git, server } = session;
    await signInThroughForm(page, { username: 'root', password: server.root.password });
    projectPath = await createProjectThroughUI(page, { name: 'Greeter', namespacePath: 'root' });
    const cloneUrl = await page.getByLabel('Clone with HTTP').inputValue();
    repo = join(git.dir, 'greeter');
    await pushMergeRequestFixture(git, cloneUrl, repo);
    projectId = (await rest<{ id: number }>('GET', `/projects/${encodeURIComponent(projectPath)}`)).id;

    await page.goto(`/${projectPath}/-/merge_requests/new?merge_request[source_branch]=${MR.source}&merge_request[target_branch]=${MR.target}`);
    const title = page.getByLabel('Title');
    await title.waitFor();
    await title.fill(MR.title);
    await shot(page, T, 'new-form');
    await page.getByRole('button', { name: 'Create merge request' }).click();

    await page.waitForURL((url) => /\/-\/merge_requests\/\d+$/.test(url.pathname));
    iid = Number(new URL(page.url()).pathname.split('/').pop());
    expect(iid).toBe(1);
    await page.getByRole('heading', { level: 1, name: MR.title }).waitFor();
    await page.getByText('Open', { exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Close merge request' }).isVisible()).toBe(true);
    await shot(page, T, 'created');
  });

  it('shows the file tree and the changed files on the Changes tab, with the rename and the image views', async () => {
    await page.getByRole('navigation', { name: 'Merge request' }).getByRole('link', { name: /Changes/ }).click();
    await page.waitForURL((url) => url.pathname === `/${projectPath}/-/merge_requests/${iid}/diffs`);

    const tree = page.getByRole('tree', { name: 'Changed files tree' });
    await tree.waitFor();
    for (const name of ['app.ts', 'farewell.ts', 'install.md', MR.image]) {
      await tree.getByRole('treeitem', { name: new RegExp(`^${name.replace('.', '\\.')}\\b`) }).waitFor();
    }
    await changes().getByRole('heading', { name: MR.changedFile, exact: true }).waitFor();
    await changes().getByText(MR.changedLine).first().waitFor();
    const renamed = changes().getByRole('heading', { name: new RegExp(`${MR.renamedFrom}.*${MR.renamedTo}`) });
    await renamed.waitFor();
    expect(await renamed.textContent()).toBe(`${MR.renamedFrom} → ${MR.renamedTo}`);
    await shotKeepingRows(page, 'changes');

    // The diff list is virtualised: files below the fold are reached through the tree.
    await tree.getByRole('treeitem', { name: /^farewell\.ts\b/ }).click();
    await changes().getByRole('heading', { name: MR.addedFile, exact: true }).waitFor();
    await changes().getByText('export const FAREWELL = "Goodbye";').first().waitFor();
    await shotKeepingRows(page, 'added-file');

    await tree.getByRole('treeitem', { name: new RegExp(`^${MR.image.replace('.', '\\.')}\\b`) }).click();
    // Primer's SegmentedControl is a list of buttons.
    const modes = changes().getByRole('list', { name: 'Image view' });
    await modes.waitFor();
    await page.getByRole('img', { name: `${MR.image} before` }).waitFor();
    await page.getByRole('img', { name: `${MR.image} after` }).waitFor();
    for (const mode of ['2-up', 'Swipe', 'Onion skin']) {
      await modes.getByRole('button', { name: mode, exact: true }).waitFor();
    }
    await shotKeepingRows(page, 'image-2-up');

    await modes.getByRole('button', { name: 'Swipe', exact: true }).click();
    await page.getByRole('slider', { name: 'Swipe position' }).waitFor();
    await shotKeepingRows(page, 'image-swipe');
    await expect.poll(() => modes.getByRole('button', { name: 'Swipe', exact: true, pressed: true }).count()).toBe(1);

    await modes.getByRole('button', { name: 'Onion skin', exact: true }).click();
    await page.getByRole('slider', { name: 'Opacity of the new image' }).waitFor();
    await shotKeepingRows(page, 'image-onion-skin');
    // Still in onion skin after the screenshot (the mode is not reset behind the viewer's back).
    await expect.poll(() => page.getByRole('slider', { name: 'Opacity of the new image' }).isVisible()).toBe(true);
    await expect.poll(() => modes.getByRole('button', { name: 'Onion skin', exact: true, pressed: true }).count()).toBe(1);
  });

  it('offers a second version after another push, and compares version 1 with version 2', async () => {
    const { git } = session;
    write(repo, MR.addedFile, `export const FAREWELL = "Goodbye";\n${MR.secondVersionLine}\n`);
    await git.git(['commit', '--all', '-m', MR.secondCommitTitle], { cwd: repo });
    await git.git(['push', 'origin', MR.source], { cwd: repo });

    // The new diff version is recorded after the push; wait for it rather than sleep.
    const versionsPath = `/projects/${projectId}/merge_requests/${iid}/versions`;
    await expect.poll(async () => (await rest<unknown[]>('GET', versionsPath)).length, { timeout: 15_000 }).toBe(2);

    await page.reload();
    const shown = page.getByRole('button', { name: 'Version shown: latest version' });
    await shown.click();
    const versions = page.getByRole('menu').or(page.getByRole('listbox', { name: 'Versions' }));
    await versions.getByText('version 1', { exact: true }).waitFor();
    await versions.getByText('latest version', { exact: true }).waitFor();
    await shot(page, T, 'versions-menu');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: `Compared with: ${MR.target} (base)` }).click();
    await page.getByText('version 1', { exact: true }).click();
    await page.getByRole('button', { name: 'Compared with: version 1' }).waitFor();
    expect(new URL(page.url()).searchParams.get('start_sha')).toMatch(/^[0-9a-f]{40}$/);

    // Between the versions, only the second commit's change: one file, one added line.
    await changes().getByRole('heading', { name: MR.addedFile, exact: true }).waitFor();
    await changes().getByText(MR.secondVersionLine).first().waitFor();
    expect(await changes().getByRole('heading', { name: MR.changedFile, exact: true }).count()).toBe(0);
    const tree = page.getByRole('tree', { name: 'Changed files tree' });
    await tree.getByRole('treeitem', { name: /^farewell\.ts\b/ }).waitFor();
    expect(await tree.getByRole('treeitem', { name: /^(app\.ts|install\.md|logo\.png)\b/ }).count()).toBe(0);
    await shotKeepingRows(page, 'version-1-vs-2');
  });

  it('closes the merge request, then reopens it', async () => {
    await page.getByRole('navigation', { name: 'Merge request' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('button', { name: 'Close merge request' }).click();
    const reopen = page.getByRole('button', { name: 'Reopen merge request' });
    await reopen.waitFor();
    await page.getByText('Closed', { exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Close merge request' }).count()).toBe(0);
    await shot(page, T, 'closed');

    await reopen.click();
    await page.getByRole('button', { name: 'Close merge request' }).waitFor();
    await page.getByText('Open', { exact: true }).first().waitFor();
    expect((await rest<{ state: string }>('GET', `/projects/${projectId}/merge_requests/${iid}`)).state).toBe('opened');
    await shot(page, T, 'reopened');
  });

  it('filters the list by source branch; Clear filters and Back reach the box, and no old filter is written back', async () => {
    await page.goto(`/${projectPath}/-/merge_requests`);
    const box = page.getByRole('textbox', { name: 'Source branch' });
    const row = page.getByRole('link', { name: MR.title });
    const filter = () => new URL(page.url()).searchParams.get('source_branch');
    await row.waitFor();

    await box.fill('nothing-here');
    await page.waitForURL((url) => url.searchParams.get('source_branch') === 'nothing-here');
    await page.getByText('No results found').waitFor();
    await box.fill(`${MR.source} `);
    await page.waitForURL((url) => url.searchParams.get('source_branch') === MR.source);
    await row.waitFor();
    // the URL took the text trimmed; the box keeps it as typed
    expect(await box.inputValue()).toBe(`${MR.source} `);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => box.inputValue()).toBe('');
    await page.waitForTimeout(700);
    expect(filter()).toBeNull();

    await page.goBack();
    await expect.poll(filter).toBe(MR.source);
    await expect.poll(() => box.inputValue()).toBe(MR.source);
    await page.waitForTimeout(700);
    expect(filter()).toBe(MR.source);
    await row.waitFor();
    await shot(page, T, 'list-filtered');
  });
});
