import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chooseInTree, viewportShot } from './support/diff-pages.js';
import { pageSettled, scrollSettled } from './support/flows.js';
import { browserSession, commitFile } from './support/session.js';

/**
 * The merge request page's rough edges: the Changes tab in side-by-side keeps a file chosen in the
 * tree clear of the sticky file header; the file menu's 'Show full file' / 'Show changes only' and
 * 'Open in Web IDE'; the line's comment tooltip sits above its line, not on its code, and is gone
 * while a comment form is open; a multi-line thread names its lines as GitLab does; an empty title
 * is said under the field; every page has its own document title, and 'Page not found' marks no tab.
 */
const T = 'merge-request-page';

/** Files long enough that a change in the middle leaves lines the diff hides. */
const MODULES = Array.from({ length: 16 }, (_, i) => `src/module-${String(i + 1).padStart(2, '0')}.ts`);
const LINES = 40;
const line = (n: number) => `export const LINE_${n} = ${n};`;
const changed = (n: number) => `export const LINE_${n} = ${n * 100}; // changed`;
const CHANGED_AT = 20;
const ADD_LINE = 'Add a comment to this line or drag for multiple lines';

describe('merge request page', () => {
  const session = browserSession(T);
  let page: Page;
  let project: { id: number; path_with_namespace: string };
  let iid = 0;

  const changes = () => page.getByRole('region', { name: 'Changes' });
  const fileHeading = (path: string) => changes().getByRole('heading', { name: path, exact: true });
  const diffsUrl = () => `/${project.path_with_namespace}/-/merge_requests/${iid}/diffs`;

  /** What the reader sees at the middle of a file's heading in the list is that file's path (its own header, or its sticky copy), not another file's. */
  async function expectUncovered(path: string, state: string): Promise<void> {
    const heading = changes().locator('[data-index]').getByRole('heading', { name: path, exact: true });
    const seen = await heading.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return document.elementFromPoint(box.left + 10, box.top + box.height / 2)?.closest('h3')?.textContent ?? null;
    });
    await viewportShot(page, T, `side-by-side-${state}-${path.replace(/\W+/g, '-')}`);
    expect(seen, `${path} (${state})`).toBe(path);
  }

  beforeAll(async () => {
    const { git, rest } = session;
    project = await rest('POST', '/projects', { name: 'Page', path: 'page' });
    const dir = join(git.dir, 'page');
    await git.git(['init', '--initial-branch=main', dir]);
    for (const path of MODULES) await commitFile(git, dir, path, `${Array.from({ length: LINES }, (_, n) => line(n + 1)).join('\n')}\n`, `Add ${path}`);
    await git.git(['remote', 'add', 'origin', git.repoUrl(project.path_with_namespace)], { cwd: dir });
    await git.git(['push', '--set-upstream', 'origin', 'main'], { cwd: dir });
    await git.git(['switch', '--create', 'feature'], { cwd: dir });
    for (const path of MODULES) {
      const text = Array.from({ length: LINES }, (_, n) => (n + 1 === CHANGED_AT ? changed(n + 1) : line(n + 1)));
      await commitFile(git, dir, path, `${text.join('\n')}\n`, `Change ${path}`);
    }
    await git.git(['push', '--set-upstream', 'origin', 'feature'], { cwd: dir });
    ({ iid } = await rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Change every module' }));
    page = await session.signIn();
  });

  it('in side-by-side, a file chosen in the tree is not covered by the sticky header', async () => {
    await page.goto(diffsUrl());
    await page.getByRole('tree', { name: 'Changed files tree' }).waitFor();
    await page.getByRole('button', { name: 'Side-by-side' }).click();
    for (const target of [MODULES[9]!, MODULES[3]!, MODULES[12]!]) {
      await chooseInTree(page, target);
      await fileHeading(target).first().waitFor();
      await scrollSettled(page);
      await expectUncovered(target, 'chosen');
      // A landing a few pixels short (rows above measured after the jump) leaves the previous file's
      // end at the top: its sticky header slides up with it instead of lying over the chosen file.
      await page.mouse.move(800, 400);
      await page.mouse.wheel(0, -6);
      await scrollSettled(page);
      await expectUncovered(target, 'short');
    }
  });

  it("shows the full file from the server's blob and back to the changes only; 'Open in Web IDE' opens the editor", async () => {
    await page.goto(diffsUrl());
    await page.getByRole('tree', { name: 'Changed files tree' }).waitFor();
    await page.getByRole('button', { name: 'Inline' }).click();
    const target = MODULES[4]!;
    await chooseInTree(page, target);
    await fileHeading(target).first().waitFor();
    // the lines before and after the change's context are hidden
    const first = () => changes().getByText(line(1), { exact: true });
    const last = () => changes().getByText(line(LINES), { exact: true });
    expect(await first().count()).toBe(0);
    expect(await last().count()).toBe(0);

    // chosen by keyboard: a pointer click on the menu's entry lets the browser scroll the window to it first
    const menu = async (item: string) => {
      await changes().getByRole('button', { name: `Options for ${target}` }).first().click();
      await page.getByRole('menuitem', { name: item }).focus();
      await page.keyboard.press('Enter');
    };
    await menu('Show full file');
    await first().first().waitFor();
    await last().first().waitFor();
    await viewportShot(page, T, 'full-file');
    await menu('Show changes only');
    await expect.poll(() => first().count()).toBe(0);
    expect(await last().count()).toBe(0);

    await menu('Open in Web IDE');
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/edit/feature/${target}` && url.searchParams.get('from_merge_request_iid') === String(iid));
    await page.getByRole('textbox', { name: `Contents of ${target}` }).waitFor();
  });

  it("shows the line's comment tooltip above its line, and none while a comment form is open", async () => {
    await page.goto(diffsUrl());
    await page.getByRole('tree', { name: 'Changed files tree' }).waitFor();
    await page.getByRole('button', { name: 'Inline' }).click();
    const target = MODULES[6]!;
    await chooseInTree(page, target);
    await fileHeading(target).first().waitFor();
    const row = changes().locator(`[data-point][data-path="${target}"]`, { hasText: line(CHANGED_AT - 1) });
    const plus = row.getByRole('button', { name: ADD_LINE });
    const tooltip = page.getByRole('tooltip');

    await row.hover();
    await plus.hover();
    await tooltip.getByText(ADD_LINE).waitFor();
    const [tip, own] = await Promise.all([tooltip.boundingBox(), row.boundingBox()]);
    // above the line: its code stays readable
    expect(tip!.y + tip!.height).toBeLessThanOrEqual(own!.y);
    await viewportShot(page, T, 'line-tooltip');

    // pressing the '+' opens the form and takes the tooltip away
    await plus.click();
    const form = changes().locator('[data-diff-note-form]');
    await form.getByRole('textbox', { name: 'Comment' }).waitFor();
    expect(await tooltip.count()).toBe(0);
    // the keyboard on a '+' shows none while the form is open…
    await plus.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await pageSettled(page);
    expect(await tooltip.count()).toBe(0);
    await viewportShot(page, T, 'line-form-no-tooltip');
    // …and shows it once the form is closed
    await form.getByRole('textbox', { name: 'Comment' }).press('Escape');
    await expect.poll(() => form.count()).toBe(0);
    await plus.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await tooltip.getByText(ADD_LINE).waitFor();
  });

  it('names the lines a multi-line thread covers, as GitLab does', async () => {
    const target = MODULES[7]!;
    const { rest } = session;
    const mr = await rest<{ diff_refs: { base_sha: string; start_sha: string; head_sha: string } }>('GET', `/projects/${project.id}/merge_requests/${iid}`);
    const code = (oldLine: number | null, newLine: number | null) => `${createHash('sha1').update(target).digest('hex')}_${oldLine ?? ''}_${newLine ?? ''}`;
    await rest('POST', `/projects/${project.id}/merge_requests/${iid}/discussions`, {
      body: 'These lines go together.',
      position: {
        position_type: 'text',
        ...mr.diff_refs,
        old_path: target,
        new_path: target,
        new_line: CHANGED_AT,
        line_range: {
          start: { line_code: code(CHANGED_AT - 2, CHANGED_AT - 2), type: null, old_line: CHANGED_AT - 2, new_line: CHANGED_AT - 2 },
          end: { line_code: code(null, CHANGED_AT), type: 'new', old_line: null, new_line: CHANGED_AT },
        },
      },
    });
    await page.goto(diffsUrl());
    await page.getByRole('tree', { name: 'Changed files tree' }).waitFor();
    await chooseInTree(page, target);
    const thread = changes().getByRole('article', { name: 'Thread' }).filter({ hasText: 'These lines go together.' });
    await thread.getByText(`Comment on lines ${CHANGED_AT - 2} to +${CHANGED_AT}`).waitFor();
    await viewportShot(page, T, 'multi-line-thread');
  });

  it("titles the page 'Title (!iid) · Merge requests · namespace / project · Tributary'", async () => {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await page.waitForFunction((title) => document.title === title, `Change every module (!${iid}) · Merge requests · Administrator / Page · Tributary`);
  });

  it("says 'This field is required.' under an empty title on the new merge request form", async () => {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/new?merge_request%5Bsource_branch%5D=feature&merge_request%5Btarget_branch%5D=main`);
    const title = page.getByRole('textbox', { name: /^Title/ });
    await expect.poll(() => title.inputValue()).not.toBe('');
    await title.fill('');
    await page.getByRole('button', { name: 'Create merge request' }).click();
    await page.getByText('This field is required.').waitFor();
    // the message slides in: the picture is taken once it has had its frames
    await pageSettled(page, 30);
    await viewportShot(page, T, 'empty-title');
    // nothing was created
    expect((await session.rest<unknown[]>('GET', `/projects/${project.id}/merge_requests`)).length).toBe(1);
  });

  it('gives every page its own document title', async () => {
    const group = await session.rest<{ full_path: string; name: string }>('POST', '/groups', { name: 'Title Group', path: 'title-group' });
    const titled = async (path: string, title: string) => {
      await page.goto(path);
      // set once the page has rendered, after the URL changed
      await page.waitForFunction((expected) => document.title === expected, title).catch(async () => {
        throw new Error(`${path}: expected the title '${title}', got '${await page.title()}'`);
      });
    };
    await titled('/dashboard/groups', 'Groups · Tributary');
    await titled('/groups/new', 'New group · Tributary');
    await titled('/dashboard/merge_requests', 'Merge requests · Tributary');
    await titled('/dashboard/projects', 'Projects · Tributary');
    await titled('/projects/new', 'New project · Tributary');
    await titled(`/groups/${group.full_path}/-/group_members`, 'Members · Title Group · Tributary');
    await titled('/-/user_settings/personal_access_tokens', 'Personal access tokens · User settings · Tributary');
    await titled('/admin/users', 'Users · Admin area · Tributary');
    await titled(`/${project.path_with_namespace}/-/merge_requests`, 'Merge requests · Administrator / Page · Tributary');
    await titled(`/${project.path_with_namespace}/-/no-such-page`, 'Page not found · Tributary');
    expect(await page.getByRole('navigation', { name: 'Project' }).locator('[aria-current="page"]').count()).toBe(0);
  });
});
