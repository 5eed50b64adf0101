import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../server/src/test-support/server.js';
import { newPage } from './support/browser.js';
import { signInThroughForm } from './support/flows.js';
import { browserSession, createMergeRequestFixture } from './support/session.js';

/**
 * Attachments and abuse reports in Chromium against a real server:
 * a pasted image and a dropped file are uploaded and their markdown lands in the comment;
 * "Report abuse to administrator" from a note's menu, with its required category, and the
 * report resolved from the admin area.
 */
const T = 'uploads-abuse';
/** A 4×4 red PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEklEQVR4nGP4z8CAB+GTG8HSALfKY52fTcuYAAAAAElFTkSuQmCC', 'base64');

describe('uploads and abuse reports', () => {
  const session = browserSession(T);
  const { rest } = session;
  let page: Page;
  let developer: TestUser;
  let project: { id: number; path_with_namespace: string };
  let iid = 0;

  const activity = () => page.locator('#notes');
  const note = (text: string | RegExp) => activity().locator('[data-note-id]', { hasText: text });
  const commentBox = () => activity().getByRole('textbox', { name: 'Comment', exact: true });

  const snap = (state: string, target: Locator) => session.snap(state, target);

  async function visit(): Promise<void> {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await activity().getByRole('heading', { name: 'Activity' }).waitFor();
    await activity().getByRole('status', { name: 'Loading activity' }).waitFor({ state: 'detached' });
  }

  /** Fires a paste or drop carrying one file at the comment box, as the browser would. */
  async function sendFile(kind: 'paste' | 'drop', name: string, type: string, bytes: Buffer): Promise<void> {
    await commentBox().evaluate(
      (element, { kind, name, type, bytes }) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(bytes)], name, { type }));
        const init = { bubbles: true, cancelable: true };
        const event = kind === 'paste' ? new ClipboardEvent('paste', { ...init, clipboardData: data }) : new DragEvent('drop', { ...init, dataTransfer: data });
        element.dispatchEvent(event);
      },
      { kind, name, type, bytes: [...bytes] },
    );
  }

  beforeAll(async () => {
    developer = await session.server.createUser({ username: 'dana', name: 'Dana Developer' });
    ({ project, iid } = await createMergeRequestFixture(session, { path: 'attach', title: 'Attach things', members: [developer] }));
    await rest('POST', `/projects/${project.id}/merge_requests/${iid}/notes`, { body: 'Buy cheap followers at example.com' }, developer.token);

    page = await session.signIn();
  });

  it('a pasted image is uploaded and shown in the comment', async () => {
    await visit();
    await commentBox().fill('Here is the screenshot:\n');
    await sendFile('paste', 'shot.png', 'image/png', PNG);
    await expect.poll(() => commentBox().inputValue(), { timeout: 10_000 }).toMatch(/^Here is the screenshot:\n!\[shot\]\(\/uploads\/[0-9a-f]{32}\/shot\.png\)$/);
    await activity().getByRole('button', { name: 'Comment', exact: true }).click();
    const image = note('Here is the screenshot').locator('img[alt="shot"]');
    await image.waitFor();
    expect(await image.getAttribute('src')).toMatch(new RegExp(`^/${project.path_with_namespace}/uploads/[0-9a-f]{32}/shot\\.png$`));
    // the browser really loaded it through the permission-checked route
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 }).toBe(4);
    await snap('pasted-image', note('Here is the screenshot'));
  });

  it('a dropped file becomes a link at the caret; its download is an attachment', async () => {
    await commentBox().fill('Logs attached');
    await sendFile('drop', 'build log.txt', 'text/plain', Buffer.from('step 1 ok\n'));
    await expect.poll(() => commentBox().inputValue(), { timeout: 10_000 }).toMatch(/^Logs attached \[build_log\.txt\]\(\/uploads\/[0-9a-f]{32}\/build_log\.txt\)$/);
    await activity().getByRole('button', { name: 'Comment', exact: true }).click();
    const link = note('Logs attached').getByRole('link', { name: 'build_log.txt' });
    await link.waitFor();
    const href = (await link.getAttribute('href'))!;
    const response = await page.request.get(href);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-disposition']).toMatch(/^attachment;/);
    expect(await response.text()).toBe('step 1 ok\n');
  });

  it('reports a note’s author: the category is required, then the comment; an admin resolves it', async () => {
    const spam = note('Buy cheap followers');
    await spam.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Report abuse to administrator' }).click();
    const drawer = page.getByRole('dialog', { name: 'Report abuse to administrator' });
    await drawer.getByText('Why are you reporting this user?').waitFor();
    // Next without a reason stays on the reasons (the radio group is required)
    await drawer.getByRole('button', { name: 'Next' }).click();
    expect(await drawer.getByRole('textbox', { name: 'Comment' }).count()).toBe(0);
    expect(await drawer.getByRole('radio').count()).toBe(8);
    await snap('drawer-categories', drawer);
    await session.snap('drawer-page', page);
    await drawer.getByRole('radio', { name: 'They are posting spam.' }).check();
    await drawer.getByRole('button', { name: 'Next' }).click();
    await drawer.getByRole('textbox', { name: 'Comment' }).fill('Advertising in every thread.');
    await drawer.getByRole('button', { name: 'Send report' }).click();
    await drawer.getByText('Thank you for your report.', { exact: false }).waitFor();
    await snap('drawer-sent', drawer);
    await drawer.getByRole('button', { name: 'Close', exact: true }).last().click();
    await drawer.waitFor({ state: 'detached' });

    const [stored] = await rest<Array<{ id: number; category: string; message: string; reported_from_url: string; user: { username: string } }>>('GET', '/admin/abuse_reports');
    expect(stored).toMatchObject({ category: 'spam', message: 'Advertising in every thread.', user: { username: 'dana' } });
    expect(stored!.reported_from_url).toMatch(new RegExp(`/${project.path_with_namespace}/-/merge_requests/${iid}#note_\\d+$`));

    await page.goto('/admin/abuse_reports');
    const table = page.getByRole('table', { name: 'Abuse reports' });
    const row = table.getByRole('row', { name: /dana/ });
    await row.getByText('Advertising in every thread.').waitFor();
    await snap('admin-open', page.locator('main'));
    await row.getByRole('button', { name: 'Resolve' }).click();
    await page.getByText('No open abuse reports').waitFor();
    await page.getByRole('button', { name: 'Closed' }).click();
    await table.getByRole('row', { name: /dana/ }).getByRole('button', { name: 'Reopen' }).waitFor();
    await snap('admin-closed', page.locator('main'));
  });

  it('compares a description change with the previous version, and deletes the version', async () => {
    await rest('PUT', `/projects/${project.id}/merge_requests/${iid}`, { description: 'Fixes the login bug.' });
    await rest('PUT', `/projects/${project.id}/merge_requests/${iid}`, { description: 'Fixes the signup bug.\n\nAlso docs.' }, developer.token);
    await visit();
    const changed = note('changed the description');
    await expect.poll(() => changed.count(), { timeout: 10_000 }).toBe(2);
    const latest = changed.last();
    await latest.getByRole('button', { name: 'Compare with previous version' }).click();
    const diff = latest.getByLabel('Description changes');
    await diff.locator('del', { hasText: 'login' }).waitFor();
    await diff.locator('ins', { hasText: 'signup' }).waitFor();
    await snap('description-diff', latest);
    await latest.getByRole('button', { name: 'Delete', exact: true }).click();
    await latest.getByText('Deleted', { exact: true }).waitFor();
    const versions = await rest<Array<{ deleted: boolean }>>('GET', `/projects/${project.id}/merge_requests/${iid}/description_versions`);
    expect(versions.map((v) => v.deleted)).toEqual([false, true]);
  });

  it('a developer does not see the admin list', async () => {
    const other = await newPage(session.browser, session.server.url);
    await signInThroughForm(other, { username: developer.username, password: developer.password });
    await other.goto('/admin/abuse_reports');
    expect(await other.getByRole('table', { name: 'Abuse reports' }).count()).toBe(0);
    await other.getByText(/not found/i).first().waitFor();
    await other.close();
  });
});
