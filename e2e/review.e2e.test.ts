import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../server/src/test-support/server.js';
import { browserSession, createMergeRequestFixture } from './support/session.js';

/**
 * Review in a batch, keys, jumps, replies and role badges in the Activity section against a real server, clicked through in Chromium by
 * Dana, a Developer reviewing root's merge request. Root, through the API, is "another user".
 */
const T = 'review';

describe('reviewing a merge request in the Activity section', () => {
  const session = browserSession(T);
  const { rest } = session;
  let page: Page;
  let dana: TestUser;
  let outsider: TestUser;
  let project: { id: number; path_with_namespace: string };
  let iid = 0;

  const mrPath = () => `/projects/${project.id}/merge_requests/${iid}`;
  const activity = () => page.locator('#notes');
  const reviewBar = () => page.getByRole('region', { name: 'Review' });
  const note = (text: string | RegExp) => activity().locator('[data-note-id]', { hasText: text });
  const draft = (text: string | RegExp) => activity().locator('[data-draft-id]', { hasText: text });
  const commentBox = () => activity().getByRole('textbox', { name: 'Comment', exact: true });
  /** What root (anyone but Dana) reads through the API. */
  const publishedBodies = async () => (await rest<{ body: string }[]>('GET', `${mrPath()}/notes?per_page=100`)).map((n) => n.body);

  async function visit(): Promise<void> {
    await page.goto('about:blank');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await activity().getByRole('heading', { name: 'Activity' }).waitFor();
    await activity().getByRole('status', { name: 'Loading activity' }).waitFor({ state: 'detached' });
  }

  const snap = (state: string, target: Locator | Page = page) => session.snap(state, target);

  const inViewport = (target: Locator) =>
    target.evaluate((node) => {
      const box = node.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });

  beforeAll(async () => {
    dana = await session.server.createUser({ username: 'dana', name: 'Dana Developer' });
    outsider = await session.server.createUser({ username: 'olly', name: 'Olly Outsider' });
    ({ project, iid } = await createMergeRequestFixture(session, { path: 'review', title: 'Please review', visibility: 'public', members: [dana] }));
    await rest('POST', `${mrPath()}/notes`, { body: 'A single comment from root.' });
    await rest('POST', `${mrPath()}/notes`, { body: 'Drive-by remark.' }, outsider.token);

    page = await session.signIn(dana);
  });

  it('shows role badges: Author and Owner for root, Developer for Dana, none for a passer-by', async () => {
    await rest('POST', `${mrPath()}/notes`, { body: 'Dana was here.' }, dana.token);
    await visit();
    const root = note('A single comment from root.');
    await root.getByText('Author', { exact: true }).waitFor();
    await root.getByText('Owner', { exact: true }).waitFor();
    await note('Dana was here.').getByText('Developer', { exact: true }).waitFor();
    expect(await note('Dana was here.').getByText('Author', { exact: true }).count()).toBe(0);
    const olly = note('Drive-by remark.');
    await olly.waitFor();
    for (const badge of ['Author', 'Owner', 'Maintainer', 'Developer', 'Reporter', 'Guest', 'Contributor']) expect(await olly.getByText(badge, { exact: true }).count()).toBe(0);
    await snap('role-badges', root);
  });

  it('Ctrl+Enter comments when no review is in progress', async () => {
    expect(await reviewBar().count()).toBe(0);
    await activity().getByRole('button', { name: 'Start a review', exact: true }).waitFor();
    await commentBox().fill('Sent with the keys.');
    await commentBox().press('Control+Enter');
    await note('Sent with the keys.').waitFor();
    expect(await commentBox().inputValue()).toBe('');
    expect(await publishedBodies()).toContain('Sent with the keys.');
  });

  it('Up in the empty comment box edits the last own note; Escape leaves it', async () => {
    await commentBox().focus();
    await commentBox().press('ArrowUp');
    const editing = activity().getByRole('textbox', { name: 'Edit comment' });
    await editing.waitFor();
    expect(await editing.inputValue()).toBe('Sent with the keys.');
    await snap('up-to-edit', note('Sent with the keys.'));
    await editing.press('Escape');
    await editing.waitFor({ state: 'detached' });
  });

  it('starts a review from the comment form; the bar counts the drafts, which only Dana sees', async () => {
    await commentBox().fill('First review note.');
    await activity().getByRole('button', { name: 'Start a review', exact: true }).click();
    await draft('First review note.').getByText('Pending', { exact: true }).waitFor();
    await reviewBar().getByText('1 pending comment', { exact: true }).waitFor();
    expect(await commentBox().inputValue()).toBe('');
    // a review in progress: the button says so, and Ctrl+Enter adds to it
    await activity().getByRole('button', { name: 'Add to review', exact: true }).waitFor();
    await commentBox().fill('Second review note.');
    await commentBox().press('Control+Enter');
    await draft('Second review note.').waitFor();
    await reviewBar().getByText('2 pending comments', { exact: true }).waitFor();

    // a draft reply in a thread
    const single = activity().getByRole('article').filter({ hasText: 'Drive-by remark.' });
    await single.getByRole('button', { name: 'Reply to comment' }).click();
    await single.getByRole('textbox', { name: 'Reply to comment' }).fill('A reply, pending.');
    await single.getByRole('button', { name: 'Add to review', exact: true }).click();
    await single.locator('[data-draft-id]', { hasText: 'A reply, pending.' }).getByText('Pending', { exact: true }).waitFor();
    await reviewBar().getByText('3 pending comments', { exact: true }).waitFor();
    await snap('pending-drafts', activity());
    await snap('review-bar');

    // nobody else sees them: not as notes, and not as root's drafts
    const others = await publishedBodies();
    for (const text of ['First review note.', 'Second review note.', 'A reply, pending.']) expect(others).not.toContain(text);
    expect(await rest<unknown[]>('GET', `${mrPath()}/draft_notes`)).toEqual([]);
    // the drafts survive a reload
    await visit();
    await reviewBar().getByText('3 pending comments', { exact: true }).waitFor();
  });

  it('Shift+Ctrl+Enter comments directly while a review is in progress', async () => {
    await commentBox().fill('Straight away, please.');
    await commentBox().press('Shift+Control+Enter');
    await note('Straight away, please.').waitFor();
    expect(await publishedBodies()).toContain('Straight away, please.');
    await reviewBar().getByText('3 pending comments', { exact: true }).waitFor();
  });

  it('edits and deletes a pending comment', async () => {
    await draft('Second review note.').getByRole('button', { name: 'Edit comment' }).click();
    const field = draft('Second review note.').getByRole('textbox', { name: 'Edit comment' });
    await field.fill('Second review note, reworded.');
    await draft('Second review note').getByRole('button', { name: 'Save comment' }).click();
    await draft('Second review note, reworded.').getByText('Pending', { exact: true }).waitFor();

    await draft('First review note.').getByRole('button', { name: 'Delete comment' }).click();
    await page.getByText('Are you sure you want to delete this pending comment?').waitFor();
    await snap('delete-pending-confirm');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete comment' }).click();
    await draft('First review note.').waitFor({ state: 'detached' });
    await reviewBar().getByText('2 pending comments', { exact: true }).waitFor();
    expect((await rest<{ note: string }[]>('GET', `${mrPath()}/draft_notes`, undefined, dana.token)).map((d) => d.note).sort()).toEqual(['A reply, pending.', 'Second review note, reworded.']);
  });

  it('submits the review with a summary: everything is published at once', async () => {
    const before = await publishedBodies();
    await reviewBar().getByRole('button', { name: 'Submit review' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit review' });
    await dialog.getByRole('textbox', { name: 'Summary comment (optional)' }).fill('Overall: nearly there.');
    await snap('submit-dialog');
    // root still sees none of it while the dialog is open
    expect(await publishedBodies()).toEqual(before);
    await dialog.getByRole('button', { name: 'Submit review' }).click();
    await dialog.waitFor({ state: 'detached' });
    await reviewBar().waitFor({ state: 'detached' });
    await note('Second review note, reworded.').waitFor();
    await note('Overall: nearly there.').waitFor();
    const reply = note('A reply, pending.');
    await reply.waitFor();
    expect(await reply.getByText('Pending', { exact: true }).count()).toBe(0);
    const after = await publishedBodies();
    for (const text of ['Second review note, reworded.', 'A reply, pending.', 'Overall: nearly there.']) expect(after).toContain(text);
    // the reply made root's passer-by comment a thread
    const threads = await rest<{ individual_note: boolean; notes: { body: string; resolvable: boolean }[] }[]>('GET', `${mrPath()}/discussions?per_page=100`);
    expect(threads.find((d) => d.notes[0]!.body === 'Drive-by remark.')?.notes.map((n) => n.body)).toEqual(['Drive-by remark.', 'A reply, pending.']);
    expect(await rest<unknown[]>('GET', `${mrPath()}/draft_notes`, undefined, dana.token)).toEqual([]);
    // the summary is a plain comment, not a thread to resolve
    const summary = threads.find((d) => d.notes[0]!.body === 'Overall: nearly there.');
    expect(summary).toMatchObject({ individual_note: true, notes: [{ resolvable: false }] });
    expect(await note('Overall: nearly there.').getByRole('button', { name: 'Resolve thread' }).count()).toBe(0);
    await snap('submitted', activity());
  });

  it('discards a review after the confirmation', async () => {
    await commentBox().fill('Never mind this one.');
    await activity().getByRole('button', { name: 'Start a review', exact: true }).click();
    await reviewBar().getByText('1 pending comment', { exact: true }).waitFor();
    await reviewBar().getByRole('button', { name: 'Discard review' }).click();
    await page.getByText('Discard pending review?').waitFor();
    await snap('discard-confirm');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Discard review' }).click();
    await reviewBar().waitFor({ state: 'detached' });
    await draft('Never mind this one.').waitFor({ state: 'detached' });
    expect(await rest<unknown[]>('GET', `${mrPath()}/draft_notes`, undefined, dana.token)).toEqual([]);
    expect(await publishedBodies()).not.toContain('Never mind this one.');
  });

  it("keeps the text and shows the server's reason when a draft cannot be saved", async () => {
    const drafts = `**/api/v4/projects/${project.id}/merge_requests/${iid}/draft_notes`;
    await page.route(drafts, (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'Note is too long' }) }) : route.continue(),
    );
    await commentBox().fill('This draft will fail.');
    await activity().getByRole('button', { name: 'Start a review', exact: true }).click();
    await activity().getByRole('alert').filter({ hasText: 'Note is too long' }).waitFor();
    expect(await commentBox().inputValue()).toBe('This draft will fail.');
    // the form is enabled again
    expect(await activity().getByRole('button', { name: 'Start a review', exact: true }).isDisabled()).toBe(false);
    expect(await reviewBar().count()).toBe(0);
    await page.unroute(drafts);
    await commentBox().fill('');
  });

  it('replies to a single comment, which becomes a thread', async () => {
    const { id } = await rest<{ id: number }>('POST', `${mrPath()}/notes`, { body: 'Reply to me, single.' });
    await visit();
    const single = activity().getByRole('article').filter({ hasText: 'Reply to me, single.' });
    // the newest thread is last (oldest first) in a virtualised list: scroll down to it, as a reader does
    await expect
      .poll(async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return single.count();
      })
      .toBe(1);
    expect(await single.getByRole('textbox', { name: 'Reply to comment' }).count()).toBe(0);
    await single.getByRole('button', { name: 'Reply to comment' }).click();
    const field = single.getByRole('textbox', { name: 'Reply to comment' });
    await field.fill('Here is my reply.');
    await field.press('Control+Enter');
    await single.locator('[data-note-id]', { hasText: 'Here is my reply.' }).waitFor();
    const threads = await rest<{ individual_note: boolean; notes: { id: number; body: string }[] }[]>('GET', `${mrPath()}/discussions?per_page=100`);
    const turned = threads.find((d) => d.notes[0]!.id === id)!;
    expect(turned.individual_note).toBe(false);
    expect(turned.notes.map((n) => n.body)).toEqual(['Reply to me, single.', 'Here is my reply.']);
    await snap('single-reply', single);
  });

  it('jumps to the next and previous unresolved thread, far apart in a long list', async () => {
    // the threads the earlier replies made are resolved first: two stay open
    const existing = await rest<{ id: string; notes: { resolvable: boolean; resolved?: boolean }[] }[]>('GET', `${mrPath()}/discussions?per_page=100`);
    for (const d of existing) if (d.notes.some((n) => n.resolvable && !n.resolved)) await rest('PUT', `${mrPath()}/discussions/${d.id}?resolved=true`);
    const first = await rest<{ id: string }>('POST', `${mrPath()}/discussions`, { body: 'Unresolved one.' });
    for (let i = 0; i < 30; i++) await rest('POST', `${mrPath()}/notes`, { body: `Filler ${i}` });
    const resolved = await rest<{ id: string }>('POST', `${mrPath()}/discussions`, { body: 'Resolved already.' });
    await rest('PUT', `${mrPath()}/discussions/${resolved.id}?resolved=true`);
    for (let i = 30; i < 60; i++) await rest('POST', `${mrPath()}/notes`, { body: `Filler ${i}` });
    const second = await rest<{ id: string }>('POST', `${mrPath()}/discussions`, { body: 'Unresolved two.' });
    await visit();
    const header = activity().getByRole('group', { name: 'Unresolved threads' });
    await header.getByText('2 unresolved threads', { exact: true }).waitFor();
    const row = (id: string) => activity().locator(`li:has(> [data-discussion-id="${id}"])`);

    await header.getByRole('button', { name: 'Go to next unresolved thread' }).click();
    await expect.poll(() => row(first.id).getAttribute('data-highlighted')).toBe('true');
    await expect.poll(() => inViewport(row(first.id))).toBe(true);
    await snap('jump-first');

    await header.getByRole('button', { name: 'Go to next unresolved thread' }).click();
    await expect.poll(() => row(second.id).getAttribute('data-highlighted')).toBe('true');
    await expect.poll(() => inViewport(row(second.id))).toBe(true);
    // far apart: the first is out of view (or out of the DOM: the list is virtualised)
    expect((await row(first.id).count()) === 0 || !(await inViewport(row(first.id)))).toBe(true);
    await snap('jump-second');

    await header.getByRole('button', { name: 'Go to previous unresolved thread' }).click();
    await expect.poll(() => row(first.id).getAttribute('data-highlighted')).toBe('true');
    await expect.poll(() => inViewport(row(first.id))).toBe(true);
  });
});
