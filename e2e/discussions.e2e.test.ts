import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../server/src/test-support/server.js';
import { shot } from './support/flows.js';
import { browserSession, commitFile, createMergeRequestFixture } from './support/session.js';

/**
 * The Activity section of a merge request
 * against a real server: comments, threads, replies, edits, deletes, resolving, filter,
 * sort, `#note_` links and autosaved drafts, clicked through in Chromium.
 */
const T = 'discussions';

describe('the Activity section', () => {
  const session = browserSession(T);
  const { rest } = session;
  let page: Page;
  let developer: TestUser;
  let project: { id: number; path_with_namespace: string };
  let iid = 0;

  const mrPath = () => `/projects/${project.id}/merge_requests/${iid}`;
  const activity = () => page.locator('#notes');
  const note = (text: string | RegExp) => activity().locator('[data-note-id]', { hasText: text });
  const thread = (text: string | RegExp) => activity().getByRole('article').filter({ hasText: text });
  const commentBox = () => activity().getByRole('textbox', { name: 'Comment', exact: true });

  async function visit(hash = ''): Promise<void> {
    // a URL that differs only in its hash would not load the page again
    if (hash) await page.goto('about:blank');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}${hash}`);
    await activity().getByRole('heading', { name: 'Activity' }).waitFor();
    await activity().getByRole('status', { name: 'Loading activity' }).waitFor({ state: 'detached' });
  }

  /** An element's picture (full-page shots put the sticky header mid-picture). */
  const snap = (state: string, target: Locator = activity()) => session.snap(state, target);

  beforeAll(async () => {
    const { git, server } = session;
    developer = await server.createUser({ username: 'dev', name: 'Dana Developer' });
    const fixture = await createMergeRequestFixture(session, { path: 'talk', title: 'Talk it over', members: [developer] });
    ({ project, iid } = fixture);
    const { dir } = fixture;
    // four more commits in one push: an "added 4 commits" note whose list collapses above 3
    for (const name of ['b', 'c', 'd', 'e']) await commitFile(git, dir, `${name}.txt`, `${name}\n`, `Add ${name}`);
    await git.git(['push'], { cwd: dir });
    await rest('PUT', mrPath(), { title: 'Talk it all over' });
    await rest('POST', `${mrPath()}/notes`, { body: 'A first look from **Dana**.' }, developer.token);

    page = await session.signIn();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  });

  it('lists system notes, with the commit list collapsed above 3, and comments', async () => {
    await expect.poll(async () => (await rest<unknown[]>('GET', `${mrPath()}/notes`)).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await visit();
    const pushed = note(/added 4 commits/);
    await pushed.waitFor();
    expect(await pushed.getByRole('list', { name: 'Commits' }).getByRole('listitem').count()).toBe(3);
    await pushed.getByRole('button', { name: 'Toggle commit list' }).click();
    expect(await pushed.getByRole('list', { name: 'Commits' }).getByRole('listitem').count()).toBe(4);
    await note(/changed title/).waitFor();
    await note('A first look from').getByText('Dana', { exact: true }).waitFor();
    // the merge request's author wears the badge, Dana does not
    expect(await note('A first look from').getByText('Author', { exact: true }).count()).toBe(0);
    await snap('list');
  });

  it('comments: the button is disabled while empty, the comment shows, the form clears', async () => {
    const button = activity().getByRole('button', { name: 'Comment', exact: true });
    expect(await button.isDisabled()).toBe(true);
    await commentBox().fill('Looks **good** to me.');
    await activity().getByRole('tab', { name: 'Preview' }).click();
    await activity().getByLabel('Preview').locator('strong', { hasText: 'good' }).waitFor();
    await snap('preview');
    await activity().getByRole('tab', { name: 'Write' }).click();
    await button.click();
    await note('Looks good to me.').locator('strong', { hasText: 'good' }).waitFor();
    await note('Looks good to me.').getByText('Author', { exact: true }).waitFor();
    expect(await commentBox().inputValue()).toBe('');
  });

  it('starts a thread, replies with Ctrl+Enter and resolves it', async () => {
    await activity().getByRole('button', { name: 'Comment type' }).click();
    await page.getByRole('menuitemradio', { name: /Start a thread/ }).click();
    await commentBox().fill('Should this be configurable?');
    await activity().getByRole('button', { name: 'Start a thread', exact: true }).click();
    const started = thread('Should this be configurable?');
    await started.getByRole('textbox', { name: 'Reply to comment' }).click();
    const reply = started.getByRole('textbox', { name: 'Reply to comment' });
    await reply.fill('Yes, behind a setting.');
    await reply.press('Control+Enter');
    await note('Yes, behind a setting.').waitFor();

    await started.getByRole('button', { name: 'Resolve thread', exact: true }).click();
    await started.getByText('Resolved', { exact: true }).waitFor();
    await snap('thread-resolved', started);
    await started.getByRole('button', { name: 'Unresolve thread' }).click();
    await started.getByRole('button', { name: 'Resolve thread', exact: true }).waitFor();
    expect(await started.getByText('Resolved', { exact: true }).count()).toBe(0);
  });

  it('collapses replies behind the toggle with the count and last replier', async () => {
    const started = thread('Should this be configurable?');
    await started.getByRole('button', { name: 'Collapse replies' }).click();
    await started.getByText('1 reply', { exact: true }).waitFor();
    await started.getByText(/^Last reply by Administrator/).waitFor();
    expect(await started.getByText('Yes, behind a setting.').count()).toBe(0);
    await snap('replies-collapsed', started);
    await started.getByRole('button', { name: /1 reply/ }).click();
    await started.getByText('Yes, behind a setting.').waitFor();
  });

  it('keeps the text and shows a dismissible alert when a comment fails; posts internal notes', async () => {
    await page.route(`**/api/v4/projects/${project.id}/merge_requests/${iid}/notes`, (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'Note is too long' }) }) : route.continue(),
    );
    // the type chosen last stays chosen: back to a plain comment
    await activity().getByRole('button', { name: 'Comment type' }).click();
    await page.getByRole('menuitemradio', { name: /^Comment/ }).click();
    await commentBox().fill('This one will fail.');
    await activity().getByRole('button', { name: 'Comment', exact: true }).click();
    const alert = activity().getByRole('alert').filter({ hasText: 'Note is too long' });
    await alert.waitFor();
    expect(await commentBox().inputValue()).toBe('This one will fail.');
    await snap('comment-error', activity().locator('[class*=commentForm]'));
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await alert.waitFor({ state: 'detached' });
    await page.unroute(`**/api/v4/projects/${project.id}/merge_requests/${iid}/notes`);
    await commentBox().fill('');

    await activity().getByRole('checkbox', { name: 'Make this an internal note' }).check();
    await commentBox().fill('Only for the team.');
    expect(await page.evaluate((key) => localStorage.getItem(key), `note/MergeRequest/${iid}/internal`)).toBe('Only for the team.');
    await activity().getByRole('button', { name: 'Comment', exact: true }).click();
    await note('Only for the team.').getByText('Internal note').waitFor();
    await activity().getByRole('checkbox', { name: 'Make this an internal note' }).uncheck();
    const stored = (await rest<{ body: string; internal: boolean }[]>('GET', `${mrPath()}/notes`)).find((n) => n.body === 'Only for the team.');
    expect(stored?.internal).toBe(true);
  });

  it('edits a comment in place, and warns when someone else changed it meanwhile', async () => {
    const mine = activity().locator(`#note_${await note('Looks good to me.').getAttribute('data-note-id')}`);
    await mine.getByRole('button', { name: 'Edit comment' }).click();
    await mine.getByRole('textbox', { name: 'Edit comment' }).fill('Looks great to me.');
    await mine.getByRole('button', { name: 'Save comment' }).click();
    await note('Looks great to me.').waitFor();
    const id = Number(await note('Looks great to me.').getAttribute('data-note-id'));
    await expect.poll(async () => (await rest<{ body: string }>('GET', `${mrPath()}/notes/${id}`)).body).toBe('Looks great to me.');

    const edited = activity().locator(`#note_${id}`);
    await edited.getByRole('button', { name: 'Edit comment' }).click();
    // meanwhile, the same note changes on the server
    await rest('PUT', `${mrPath()}/notes/${id}`, { body: 'Changed elsewhere.' });
    const field = activity().locator(`#note_${id}`).getByRole('textbox', { name: 'Edit comment' });
    await field.fill('My stale edit.');
    await activity().locator(`#note_${id}`).getByRole('button', { name: 'Save comment' }).click();
    await activity()
      .locator(`#note_${id}`)
      .getByText('This comment changed after you started editing it. Review the updated comment to ensure information is not lost.')
      .waitFor();
    // the stale text is still in the field, nothing was overwritten
    expect(await field.inputValue()).toBe('My stale edit.');
    expect((await rest<{ body: string }>('GET', `${mrPath()}/notes/${id}`)).body).toBe('Changed elsewhere.');
    await snap('edit-conflict', activity().locator(`#note_${id}`));

    // Escape with changes asks first
    await field.press('Escape');
    await page.getByText('Are you sure you want to cancel editing this comment?').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel editing' }).click();
    await note('Changed elsewhere.').waitFor();
  });

  it('deletes a comment after the confirmation', async () => {
    await rest('POST', `${mrPath()}/notes`, { body: 'Delete me.' });
    await visit();
    const target = note('Delete me.');
    await target.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete comment' }).click();
    await page.getByText('Are you sure you want to delete this comment?').waitFor();
    await shot(page, T, 'delete-confirm');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete comment' }).click();
    await target.waitFor({ state: 'detached' });
    expect((await rest<{ body: string }[]>('GET', `${mrPath()}/notes`)).some((n) => n.body === 'Delete me.')).toBe(false);
  });

  it('filters and sorts, and remembers both after a reload', async () => {
    await activity().getByRole('button', { name: 'Sort or filter' }).click();
    await page.getByRole('menuitemradio', { name: 'Show history only' }).click();
    await activity().getByText("You're only seeing other activity in the feed. To add a comment, switch to one of the following options").waitFor();
    // the notice and the filtered list are separate renders: wait for the list, do not read it once
    await expect.poll(() => note('Changed elsewhere.').count()).toBe(0);
    await expect.poll(() => commentBox().count()).toBe(0);
    await snap('history-only');
    await activity().getByRole('button', { name: 'Show comments only' }).click();
    await note('Changed elsewhere.').waitFor();
    await expect.poll(() => note(/added 4 commits/).count()).toBe(0);

    await activity().getByRole('button', { name: 'Sort or filter' }).click();
    await page.getByRole('menuitemradio', { name: 'Newest first' }).click();
    await page.reload();
    await activity().getByRole('status', { name: 'Loading activity' }).waitFor({ state: 'detached' });
    await note('Changed elsewhere.').waitFor();
    const order = await activity().locator('[data-note-id]').evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ''));
    expect(order.findIndex((text) => text.includes('Should this be configurable?'))).toBeLessThan(order.findIndex((text) => text.includes('A first look from')));
    expect(await note(/added 4 commits/).count()).toBe(0);
    // newest first: the form comes after the list
    const formBelow = await page.evaluate(() => {
      const list = document.querySelector('#notes ol');
      const form = document.querySelector('#notes textarea');
      return !!list && !!form && (list.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    });
    expect(formBelow).toBe(true);
    await snap('comments-newest-first');

    await activity().getByRole('button', { name: 'Sort or filter' }).click();
    await page.getByRole('menuitemradio', { name: 'Oldest first' }).click();
    await activity().getByRole('button', { name: 'Sort or filter' }).click();
    await page.getByRole('menuitemradio', { name: 'Show all activity' }).click();
    await note(/added 4 commits/).waitFor();
  });

  it('links to a note: #note_ scrolls to it, and Copy link says so', async () => {
    const first = await rest<{ id: number }>('POST', `${mrPath()}/notes`, { body: 'Far away note.' });
    for (let i = 0; i < 12; i++) await rest('POST', `${mrPath()}/notes`, { body: `Filler ${i}` });
    await visit(`#note_${first.id}`);
    const target = activity().locator(`#note_${first.id}`);
    await expect.poll(() => target.getAttribute('data-target')).toBe('true');
    await expect.poll(() => target.evaluate((node) => {
      const box = node.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    })).toBe(true);
    await session.snap('note-link', page);

    await target.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Copy link' }).click();
    await target.getByText('Link copied to clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`#note_${first.id}`);
  });

  it('autosaves the comment draft, which survives a reload', async () => {
    await visit();
    await commentBox().fill('Half-written thought');
    expect(await page.evaluate((key) => localStorage.getItem(key), `note/MergeRequest/${iid}`)).toBe('Half-written thought');
    await page.reload();
    await activity().getByRole('heading', { name: 'Activity' }).waitFor();
    await expect.poll(() => commentBox().inputValue()).toBe('Half-written thought');
    await snap('autosave-restored', commentBox());
    await commentBox().fill('');
  });

  it('shows the locked notice, and members may still comment', async () => {
    await rest('PUT', mrPath(), { discussion_locked: true });
    await visit();
    await activity().getByText('The discussion in this merge request is locked. Only project members can comment.').waitFor();
    await commentBox().waitFor();
    await snap('locked', activity().getByText('The discussion in this merge request is locked. Only project members can comment.'));
    await rest('PUT', mrPath(), { discussion_locked: false });
    await visit();
  });

  it('Up in the empty comment field edits the last own note', async () => {
    await commentBox().focus();
    await commentBox().press('ArrowUp');
    const editing = activity().getByRole('textbox', { name: 'Edit comment' });
    await editing.waitFor();
    expect(await editing.inputValue()).toMatch(/^Filler 11$/);
    await editing.press('Escape');
    await editing.waitFor({ state: 'detached' });
  });

  it('shows the first of many threads at once and keeps only the visible ones in the page', async () => {
    const body = Array.from({ length: 300 }, (_, i) => `Bulk ${i}`);
    for (let i = 0; i < body.length; i += 25) await Promise.all(body.slice(i, i + 25).map((text) => rest('POST', `${mrPath()}/discussions`, { body: text })));
    const apiStarted = Date.now();
    await rest('GET', `${mrPath()}/discussions?pagination=keyset&per_page=100`);
    console.log(`[${T}] first keyset page of 100 threads: ${Date.now() - apiStarted} ms`);
    const started = Date.now();
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await activity().getByRole('heading', { name: 'Activity' }).waitFor();
    const sectionShown = Date.now() - started;
    await note('A first look from').waitFor();
    const firstNotes = Date.now() - started;
    console.log(`[${T}] Activity heading after ${sectionShown} ms`);
    // a guard against regressions, not the benchmark (bench/ measures 2,000 threads)
    expect(firstNotes).toBeLessThan(10_000);
    // every page loads in the background; the DOM holds a window of them
    await expect.poll(async () => (await rest<unknown[]>('GET', `${mrPath()}/discussions?per_page=1`)).length).toBe(1);
    // the list grows as pages arrive: keep scrolling to the end until the last thread is there
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
          return note('Bulk 299').count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    const rendered = await activity().getByRole('article').count();
    expect(rendered).toBeLessThan(100);
    console.log(`[${T}] first notes after ${firstNotes} ms; ${rendered} threads in the DOM of 300+`);
    // the window, as the reader sees it: a whole-page shot makes the window as tall as the page,
    // so the virtualised list would render all 300 threads at once (and time out on a busy machine)
    await shot(page, T, 'many-threads-bottom', { fullPage: false });
  });
});
