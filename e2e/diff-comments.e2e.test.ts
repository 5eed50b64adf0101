import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GitCli } from '../server/src/test-support/server.js';
import { chooseInTree, viewportShot } from './support/diff-pages.js';
import { solidPng } from './support/png.js';
import { browserSession } from './support/session.js';

/**
 * Diff comments in the Changes tab: comments on a line, on a
 * dragged range, on a whole file and on an image; the refusal tooltip of a file replaced by
 * a symbolic link; threads beside their lines and, with their excerpt, in Activity; a review
 * started from the diff (its draft pending); a file marked 'Viewed' (collapsed, after a reload too).
 */
const T = 'diff-comments';

const APP = 'src/app.ts';
const GUIDE = 'docs/guide.md';
const IMAGE = 'logo.png';
const TYPECHANGE = 'typechange.txt';
const IMAGE_SIZE = { width: 1600, height: 800 };
const ADD_LINE = 'Add a comment to this line or drag for multiple lines';
const SYMLINK_REFUSAL = 'Commenting on symbolic links that replace or are replaced by files is not supported';
const FILE_REFUSAL = 'Commenting on files that replace or are replaced by symbolic links is not supported';

const appLine = (i: number, value = i) => `export const L${i} = ${value};`;

function write(root: string, path: string, content: string | Buffer): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  rmSync(file, { force: true });
  writeFileSync(file, content);
}

/** `main`, and `feature` changing two lines of src/app.ts, adding a guide and an image, and replacing a file by a link. */
async function pushFixture(git: GitCli, cloneUrl: string, root: string): Promise<void> {
  mkdirSync(root, { recursive: true });
  await git.git(['init', '--initial-branch=main'], { cwd: root });
  write(root, APP, `${Array.from({ length: 12 }, (_, i) => appLine(i + 1)).join('\n')}\n`);
  write(root, TYPECHANGE, 'a plain file\n');
  await git.git(['add', '.'], { cwd: root });
  await git.git(['commit', '-m', 'Start'], { cwd: root });
  await git.git(['switch', '--create', 'feature'], { cwd: root });
  write(root, APP, `${Array.from({ length: 12 }, (_, i) => appLine(i + 1, i + 1 === 5 || i + 1 === 8 ? (i + 1) * 10 : i + 1)).join('\n')}\n`);
  write(root, GUIDE, '# Guide\n\nInstall it.\nRun it.\nEnjoy it.\n');
  write(root, IMAGE, solidPng(IMAGE_SIZE.width, IMAGE_SIZE.height, [40, 90, 220]));
  rmSync(join(root, TYPECHANGE));
  symlinkSync(APP, join(root, TYPECHANGE));
  await git.git(['add', '--all'], { cwd: root });
  await git.git(['commit', '-m', 'Comment on me'], { cwd: root });
  await git.git(['remote', 'add', 'origin', cloneUrl], { cwd: root });
  await git.git(['push', '--set-upstream', 'origin', 'main', 'feature'], { cwd: root });
}

describe('diff comments on the Changes tab', () => {
  const session = browserSession(T);
  const { rest } = session;
  let page: Page;
  let project: { id: number; path_with_namespace: string };
  let iid = 0;

  const mrPath = () => `/projects/${project.id}/merge_requests/${iid}`;
  const changes = () => page.getByRole('region', { name: 'Changes' });
  /** A file's header item (the virtual list gives it the file's id). */
  const header = (path: string) => changes().locator('[id^="diff-file-"]', { has: page.getByRole('heading', { name: path, exact: true }) });
  /** An inline row by its code text. */
  const row = (text: string) => changes().locator('[data-point]', { hasText: text });
  const form = () => changes().locator('[data-diff-note-form]');
  const discussions = async () => (await rest<any[]>('GET', `${mrPath()}/discussions`)).filter((d) => d.notes[0]?.type === 'DiffNote');

  async function openDiffs(): Promise<void> {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}/diffs`);
    await page.getByRole('tree', { name: 'Changed files tree' }).waitFor();
  }

  async function openFile(path: string): Promise<void> {
    await chooseInTree(page, path);
    await changes().getByRole('heading', { name: path, exact: true }).first().waitFor();
  }

  /**
   * Chooses `item` from a file's more-actions menu, opened by keyboard from its header in the list or
   * the sticky copy at the top (whichever shows; the review bar at the foot of the window may cover a
   * header). A menu belongs to its header: when the layout moves (comments hidden shorten the page and
   * the window's scroll is clamped) the header at the top may be replaced and its open menu closes, so
   * the menu is opened again until the choice lands. A closing menu, or another file's, is closed.
   */
  async function chooseOption(path: string, item: string): Promise<void> {
    await expect
      .poll(
        async () => {
          const menu = page.getByRole('menu');
          if ((await menu.count()) > 0) {
            const entry = menu.getByRole('menuitem', { name: item });
            if ((await entry.count()) > 0) return entry.click({ timeout: 2000 }).then(() => true, () => false);
            await page.keyboard.press('Escape');
          } else {
            await page.getByRole('button', { name: `Options for ${path}` }).first().press('Enter', { timeout: 2000 }).catch(() => undefined);
          }
          return false;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
  }

  /** Presses a line's '+' and lets go over another line (or the same one). */
  async function drag(from: Locator, to: Locator): Promise<void> {
    // mid-window: the review bar at the foot of the window would take the press
    await from.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await from.hover();
    const button = from.getByRole('button', { name: ADD_LINE });
    const start = (await button.boundingBox())!;
    await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
    await page.mouse.down();
    const end = (await to.boundingBox())!;
    await page.mouse.move(end.x + 30, end.y + end.height / 2, { steps: 5 });
    await page.mouse.up();
  }

  beforeAll(async () => {
    const { git } = session;
    project = await rest('POST', '/projects', { name: 'Notes', path: 'notes' });
    await pushFixture(git, git.repoUrl(project.path_with_namespace), join(git.dir, 'notes'));
    iid = (await rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Comment on me' })).iid;
    page = await session.signIn();
    await openDiffs();
  });

  it('comments on one line: the + opens the form, the thread shows under the line', async () => {
    await openFile(APP);
    await drag(row(appLine(5, 50)), row(appLine(5, 50)));
    await form().getByRole('textbox', { name: 'Comment' }).fill('Why fifty?');
    await viewportShot(page, T, 'line-form');
    await form().getByRole('button', { name: 'Add comment now' }).click();
    const thread = changes().getByRole('article', { name: 'Thread' }).filter({ hasText: 'Why fifty?' });
    await thread.waitFor();
    await expect.poll(async () => (await form().count())).toBe(0);
    // under its line: the next element after the row holds the thread
    expect(await row(appLine(5, 50)).locator('xpath=following-sibling::*[1]').getByText('Why fifty?').count()).toBe(1);
    const [created] = await discussions();
    expect(created.notes[0].position).toMatchObject({ position_type: 'text', new_path: APP, new_line: 5, old_line: null, line_range: null });
    await viewportShot(page, T, 'line-thread');
  });

  it('comments on a range of lines dragged over, and Escape closes an empty form', async () => {
    await drag(row(appLine(6)), row(appLine(8, 80)));
    await form().getByText('Commenting on lines 6 to +8').waitFor();
    // with the form open, the '+' shows no tooltip
    expect(await page.getByRole('tooltip').count()).toBe(0);
    const box = form().getByRole('textbox', { name: 'Comment' });
    await box.press('Escape');
    await expect.poll(async () => form().count()).toBe(0);

    await drag(row(appLine(8, 80)), row(appLine(6)));
    await form().getByText('Commenting on lines 6 to +8').waitFor();
    await form().getByRole('textbox', { name: 'Comment' }).fill('These three belong together.');
    await form().getByRole('button', { name: 'Add comment now' }).click();
    await changes().getByRole('article', { name: 'Thread' }).filter({ hasText: 'These three belong together.' }).waitFor();
    // the posted thread says which lines it covers
    await changes().getByRole('article', { name: 'Thread' }).filter({ hasText: 'These three belong together.' }).getByText('Comment on lines 6 to +8').waitFor();
    const ranged = (await discussions()).find((d) => d.notes[0].body === 'These three belong together.');
    // anchored at its last line, the added line 8
    expect(ranged.notes[0].position).toMatchObject({ new_line: 8, old_line: null });
    expect(ranged.notes[0].position.line_range.start).toMatchObject({ new_line: 6, old_line: 6, type: null });
    expect(ranged.notes[0].position.line_range.end).toMatchObject({ new_line: 8, old_line: null, type: 'new' });
    expect(ranged.notes[0].position.line_range.start.line_code).toMatch(/^[0-9a-f]{40}_6_6$/);
    await viewportShot(page, T, 'range-thread');
  });

  it('comments on a whole file from its header', async () => {
    await openFile(GUIDE);
    await header(GUIDE).getByRole('button', { name: 'Comment on this file' }).click();
    await form().getByRole('textbox', { name: 'Comment' }).fill('The guide needs a licence section.');
    await form().getByRole('button', { name: 'Add comment now' }).click();
    await header(GUIDE).getByRole('article', { name: 'Thread' }).filter({ hasText: 'The guide needs a licence section.' }).waitFor();
    const onFile = (await discussions()).find((d) => d.notes[0].position.position_type === 'file');
    expect(onFile.notes[0].position).toMatchObject({ new_path: GUIDE, old_path: GUIDE });
    await viewportShot(page, T, 'file-thread');
  });

  it('comments on an image: the click places a pin, scaled to the natural size', async () => {
    await openFile(IMAGE);
    const layer = changes().getByRole('button', { name: 'Add image comment' });
    await layer.waitFor();
    const drawn = (await layer.boundingBox())!;
    expect(drawn.width).toBeLessThan(IMAGE_SIZE.width);
    await layer.click({ position: { x: drawn.width / 4, y: drawn.height / 2 } });
    await changes().locator('[data-pin="new"]').waitFor();
    await form().getByRole('textbox', { name: 'Comment' }).fill('The blue is too dark here.');
    await form().getByRole('button', { name: 'Add comment now' }).click();
    await changes().getByRole('article', { name: 'Thread' }).filter({ hasText: 'The blue is too dark here.' }).waitFor();
    await changes().locator('[data-pin="1"]').waitFor();
    const onImage = (await discussions()).find((d) => d.notes[0].position.position_type === 'image');
    const position = onImage.notes[0].position;
    expect(position).toMatchObject({ new_path: IMAGE, width: IMAGE_SIZE.width, height: IMAGE_SIZE.height });
    expect(Math.abs(position.x - IMAGE_SIZE.width / 4)).toBeLessThanOrEqual(IMAGE_SIZE.width / drawn.width + 1);
    expect(Math.abs(position.y - IMAGE_SIZE.height / 2)).toBeLessThanOrEqual(IMAGE_SIZE.height / drawn.height + 1);
    await viewportShot(page, T, 'image-thread');
  });

  it('refuses a comment on a file replaced by a symbolic link, with the tooltip saying why', async () => {
    // the change comes as two entries of one path: the file removed, the link added
    const filter = page.getByRole('textbox', { name: 'Filter files' });
    await filter.fill(TYPECHANGE);
    await page.getByRole('tree', { name: 'Changed files tree' }).getByRole('treeitem', { name: /^typechange\.txt\b/ }).first().click();
    await filter.fill('');
    const fileLine = changes().locator(`[data-point][data-path="${TYPECHANGE}"]`, { hasText: 'a plain file' });
    const linkLine = changes().locator(`[data-point][data-path="${TYPECHANGE}"]`, { hasText: APP });
    await fileLine.hover();
    const fileButton = fileLine.getByRole('button', { name: FILE_REFUSAL });
    expect(await fileButton.getAttribute('aria-disabled')).toBe('true');
    await linkLine.hover();
    const linkButton = linkLine.getByRole('button', { name: SYMLINK_REFUSAL });
    expect(await linkButton.getAttribute('aria-disabled')).toBe('true');
    await linkButton.hover();
    // the tooltip says why, on a disabled '+' too
    await page.getByRole('tooltip').getByText(SYMLINK_REFUSAL).waitFor();
    await viewportShot(page, T, 'symlink-refusal');
    await linkButton.click({ force: true });
    expect(await form().count()).toBe(0);
    // an ordinary line offers the comment
    await openFile(APP);
    expect(await row(appLine(2)).getByRole('button', { name: ADD_LINE }).getAttribute('aria-disabled')).toBeNull();
  });

  it('starts a review: the draft shows as pending, and the next form offers Add to review', async () => {
    await openFile(GUIDE);
    const install = row('Install it.');
    await drag(install, install);
    await form().getByRole('button', { name: 'Start a review' }).waitFor();
    await form().getByRole('textbox', { name: 'Comment' }).fill('Say which version.');
    await form().getByRole('button', { name: 'Start a review' }).click();
    const pending = changes().locator('[data-draft-id]', { hasText: 'Say which version.' });
    await pending.getByText('Pending', { exact: true }).waitFor();
    const drafts = await rest<any[]>('GET', `${mrPath()}/draft_notes`);
    expect(drafts).toHaveLength(1);
    expect(drafts[0].position).toMatchObject({ position_type: 'text', new_path: GUIDE, new_line: 3 });
    // no thread was published
    expect((await discussions()).some((d) => d.notes[0].body === 'Say which version.')).toBe(false);

    const run = row('Run it.');
    await drag(run, run);
    await form().getByRole('button', { name: 'Add to review' }).waitFor();
    await viewportShot(page, T, 'review-pending');
    await form().getByRole('button', { name: 'Cancel' }).click();
  });

  it('shows the diff threads in Activity with their excerpt', async () => {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    const activity = page.locator('#notes');
    const lineThread = activity.getByRole('article').filter({ hasText: 'Why fifty?' });
    const excerpt = lineThread.locator('[data-diff-excerpt]');
    await excerpt.getByText(APP).waitFor();
    await excerpt.getByText(appLine(5, 50)).waitFor();
    await excerpt.getByText(appLine(2)).waitFor();
    await activity.getByRole('article').filter({ hasText: 'These three belong together.' }).locator('[data-diff-excerpt]').getByText(appLine(6)).waitFor();
    await activity.getByRole('article').filter({ hasText: 'The guide needs a licence section.' }).locator('[data-diff-excerpt]').getByText(GUIDE).waitFor();
    await lineThread.scrollIntoViewIfNeeded();
    await viewportShot(page, T, 'activity-excerpt');
  });

  it("hides and shows a file's comments", async () => {
    await openDiffs();
    await openFile(APP);
    await row(appLine(5, 50)).waitFor();
    await changes().getByText('Why fifty?').waitFor();
    await chooseOption(APP, 'Hide comments on this file');
    await expect.poll(async () => changes().getByText('Why fifty?').count()).toBe(0);
    await chooseOption(APP, 'Show comments on this file');
    await changes().getByText('Why fifty?').waitFor();
  });

  it('marks a file viewed: it collapses, and stays so after a reload', async () => {
    await openDiffs();
    await openFile(GUIDE);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const viewed = () => header(GUIDE).getByRole('checkbox', { name: 'Viewed' });
    // by keyboard: the review bar at the foot of the window may cover a header
    await viewed().press('Space');
    await expect.poll(async () => row('Install it.').count()).toBe(0);
    expect(await viewed().isChecked()).toBe(true);
    // kept with the fingerprint of the file's change: a push that changes the file unmarks it
    const stored = await page.evaluate((key) => window.localStorage.getItem(key), `/${project.path_with_namespace}/-/merge_requests/${iid}-file-reviews`);
    expect(JSON.parse(stored ?? '{}')).toEqual({ [GUIDE]: expect.stringMatching(/^[0-9a-z]+$/) });

    await page.reload();
    await page.getByRole('tree', { name: 'Changed files tree' }).waitFor();
    await header(GUIDE).waitFor();
    await expect.poll(async () => viewed().isChecked()).toBe(true);
    expect(await row('Install it.').count()).toBe(0);
    // the file tree marks it viewed
    const guideName = GUIDE.split('/').pop()!;
    await page.getByRole('tree', { name: 'Changed files tree' }).getByRole('treeitem', { name: new RegExp(`^${guideName.replace('.', '\\.')}\\b.*, viewed$`) }).waitFor();
    await viewportShot(page, T, 'viewed-collapsed');
    await viewed().press('Space');
    await row('Install it.').waitFor();
    expect(errors).toEqual([]);
  });

  it('comments in the side-by-side view: a removed line on the left takes its old line', async () => {
    await openDiffs();
    await page.getByRole('button', { name: 'Side-by-side' }).click();
    await openFile(APP);
    await changes().getByText('Why fifty?').waitFor();
    const removed = changes().locator(`[data-point="delete:8:"][data-path="${APP}"]`).first();
    await drag(removed, removed);
    await form().getByRole('textbox', { name: 'Comment' }).fill('The old eight was fine.');
    await form().getByRole('button', { name: 'Add comment now' }).click();
    await changes().getByRole('article', { name: 'Thread' }).filter({ hasText: 'The old eight was fine.' }).waitFor();
    const onOld = (await discussions()).find((d) => d.notes[0].body === 'The old eight was fine.');
    expect(onOld.notes[0].position).toMatchObject({ position_type: 'text', old_line: 8, new_line: null, line_range: null });
    await viewportShot(page, T, 'side-by-side');
    await page.getByRole('button', { name: 'Inline' }).click();
  });
});
