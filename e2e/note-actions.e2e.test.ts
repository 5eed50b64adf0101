import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../server/src/test-support/server.js';
import { browserSession, createMergeRequestFixture } from './support/session.js';

/**
 * What a note offers is what the server allows (its `current_user`), the reply form's
 * 'Resolve thread' checkbox with its sentence, resolved threads shown collapsed, and
 * 'Edited … by …' on an edited note: a Developer's view of someone else's merge request.
 */
const T = 'note-actions';

describe('note actions, resolving from the reply form, edited notes', () => {
  const session = browserSession(T);
  const { rest } = session;
  let page: Page;
  let developer: TestUser;
  let project: { id: number; path_with_namespace: string };
  let iid = 0;
  const mrPath = () => `/projects/${project.id}/merge_requests/${iid}`;
  const activity = () => page.locator('#notes');
  const note = (text: string) => activity().locator('[data-note-id]', { hasText: text });
  const thread = (text: string) => activity().getByRole('article').filter({ hasText: text });

  async function visit(): Promise<void> {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await activity().getByRole('heading', { name: 'Activity' }).waitFor();
    await activity().getByRole('status', { name: 'Loading activity' }).waitFor({ state: 'detached' });
  }

  beforeAll(async () => {
    developer = await session.server.createUser({ username: 'devon', name: 'Devon Developer' });
    ({ project, iid } = await createMergeRequestFixture(session, { path: 'acts', title: 'Act on notes', members: [developer] }));
    await rest('POST', `${mrPath()}/notes`, { body: 'Root says hello.' });
    await rest('POST', `${mrPath()}/notes`, { body: 'Devon says hi.' }, developer.token);
    await rest('POST', `${mrPath()}/discussions`, { body: 'Is this thread open?' });
    page = await session.signIn(developer);
  });

  it('offers a Developer no edit or delete on another user’s note, and both on their own', async () => {
    await visit();
    const others = note('Root says hello.');
    expect(await others.getByRole('button', { name: 'Edit comment' }).count()).toBe(0);
    await others.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Copy link' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Delete comment' }).count()).toBe(0);
    await session.snap('others-menu', page);
    await page.keyboard.press('Escape');

    const own = note('Devon says hi.');
    await own.getByRole('button', { name: 'Edit comment' }).waitFor();
    await own.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete comment' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('says who edited a note and when', async () => {
    const own = activity().locator(`#note_${await note('Devon says hi.').getAttribute('data-note-id')}`);
    await own.getByRole('button', { name: 'Edit comment' }).click();
    await own.getByRole('textbox', { name: 'Edit comment' }).fill('Devon says hello.');
    await own.getByRole('button', { name: 'Save comment' }).click();
    await note('Devon says hello.').getByText(/^Edited .* by Devon Developer$/).waitFor();
    await visit();
    await note('Devon says hello.').getByText(/^Edited .* by Devon Developer$/).waitFor();
    await session.snap('edited', note('Devon says hello.'));
  });

  it('resolves a thread from the reply form, which then shows collapsed', async () => {
    const open = thread('Is this thread open?');
    await open.getByRole('textbox', { name: 'Reply to comment' }).click();
    await open.getByText('Thread stays open', { exact: true }).waitFor();
    await open.getByRole('checkbox', { name: 'Resolve thread' }).check();
    await open.getByText('Thread will be resolved', { exact: true }).waitFor();
    await session.snap('reply-resolve', open);
    await open.getByRole('textbox', { name: 'Reply to comment' }).fill('Done now.');
    await open.getByRole('button', { name: 'Reply', exact: true }).click();
    await open.getByText('Resolved', { exact: true }).waitFor();
    await expect.poll(async () => (await rest<Array<{ id: string; notes: Array<{ body: string; resolved?: boolean }> }>>('GET', `${mrPath()}/discussions`)).find((d) => d.notes[0]!.body === 'Is this thread open?')?.notes[0]!.resolved).toBe(true);

    // after a reload the resolved thread is one collapsed line until opened
    await visit();
    const toggle = activity().getByRole('button', { name: /Administrator started a thread/ });
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await activity().getByText('Done now.').count()).toBe(0);
    await session.snap('resolved-collapsed', activity());
    await toggle.click();
    await activity().getByText('Done now.').waitFor();
    expect(await toggle.count()).toBe(0);

    // on a resolved thread the checkbox reopens it
    const resolved = thread('Is this thread open?');
    await resolved.getByRole('textbox', { name: 'Reply to comment' }).click();
    await resolved.getByText('Thread stays resolved', { exact: true }).waitFor();
    await resolved.getByRole('checkbox', { name: 'Unresolve thread' }).check();
    await resolved.getByText('Thread will be open', { exact: true }).waitFor();
  });
});
