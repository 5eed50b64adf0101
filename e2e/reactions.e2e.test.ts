import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../server/src/test-support/server.js';
import { shot } from './support/flows.js';
import { browserSession, createMergeRequestFixture } from './support/session.js';

/**
 * Emoji reactions against a real server: the picker
 * (search, 'No emoji found.', keyboard, frequently used after a reload), award buttons on a note
 * and on the merge request with counts and the names tooltip, toggling, and the rollback of a
 * failed award.
 */
const T = 'reactions';

describe('emoji reactions', () => {
  const session = browserSession(T);
  const { rest } = session;
  let page: Page;
  let dana: TestUser;
  let project: { id: number; path_with_namespace: string };
  let iid = 0;
  let noteId = 0;

  const mrPath = () => `/projects/${project.id}/merge_requests/${iid}`;
  const description = () => page.getByRole('region', { name: 'Description' });
  const note = () => page.locator(`[data-note-id="${noteId}"]`);
  const award = (scope: Locator, name: string) => scope.locator(`[data-emoji-name="${name}"]`);
  const picker = () => page.getByRole('dialog', { name: 'Add reaction' });
  const search = () => picker().getByRole('combobox', { name: 'Search emoji' });

  async function visit(): Promise<void> {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await note().waitFor();
    // the vote buttons show once the awards and the emoji data have loaded
    await award(description(), 'thumbsup').getByText('👍').waitFor();
  }

  const snap = (state: string, target: Locator) => session.snap(state, target);

  /** The tooltip a button describes itself with (Primer's Tooltip: aria-describedby). */
  async function tooltipOf(button: Locator): Promise<string> {
    // a tooltip hides on click; it shows again on the next pointer entry
    await page.mouse.move(0, 0);
    await button.hover();
    const id = await button.getAttribute('aria-describedby');
    const tip = page.locator(`[id="${id}"]`);
    await tip.waitFor({ state: 'visible' });
    return (await tip.textContent()) ?? '';
  }

  beforeAll(async () => {
    dana = await session.server.createUser({ username: 'dana', name: 'Dana Developer' });
    ({ project, iid } = await createMergeRequestFixture(session, { path: 'react', title: 'React to this', description: 'Please react.', members: [dana] }));
    ({ id: noteId } = await rest<{ id: number }>('POST', `${mrPath()}/notes`, { body: 'Looks good to Dana.' }, dana.token));
    // Dana reacts first: root's awards join hers
    await rest('POST', `${mrPath()}/award_emoji`, { name: 'thumbsup' }, dana.token);
    await rest('POST', `${mrPath()}/notes/${noteId}/award_emoji`, { name: 'tada' }, dana.token);

    page = await session.signIn();
  });

  it('shows thumbs up and down on the merge request, with counts and who reacted', async () => {
    await visit();
    expect(await award(description(), 'thumbsup').textContent()).toBe('👍1');
    expect(await award(description(), 'thumbsdown').textContent()).toBe('👎0');
    expect(await award(description(), 'thumbsup').getAttribute('aria-pressed')).toBe('false');
    expect(await tooltipOf(award(description(), 'thumbsup'))).toBe('Dana Developer reacted with :thumbsup:');
    expect(await award(note(), 'tada').textContent()).toBe('🎉1');
    await shot(page, T, 'overview');
  });

  it('searches the picker (No emoji found.), picks with the keyboard on the merge request, and toggles a vote', async () => {
    await description().getByRole('button', { name: 'Add reaction' }).click();
    await search().waitFor();
    // the categories, with their tabs, before any search
    await picker().getByRole('button', { name: 'Smileys & people' }).waitFor();
    await picker().getByText('Smileys & people', { exact: true }).waitFor();
    await snap('picker', picker());
    // the search runs 500 ms after the last key
    const typed = Date.now();
    await search().fill('qwxzvq');
    await picker().getByText('No emoji found.').waitFor();
    expect(Date.now() - typed).toBeGreaterThanOrEqual(500);
    await search().fill('rocket');
    await picker().getByRole('option', { name: 'rocket', exact: true }).waitFor();
    await snap('picker-search', picker());
    await search().press('ArrowRight');
    expect(await picker().getByRole('option', { selected: true }).getAttribute('aria-label')).toBe('rocket');
    await search().press('Enter');
    await picker().waitFor({ state: 'detached' });
    await expect.poll(() => award(description(), 'rocket').textContent()).toBe('🚀1');
    expect(await award(description(), 'rocket').getAttribute('aria-pressed')).toBe('true');

    await award(description(), 'thumbsup').click();
    await expect.poll(() => award(description(), 'thumbsup').textContent()).toBe('👍2');
    expect(await tooltipOf(award(description(), 'thumbsup'))).toBe('You and Dana Developer reacted with :thumbsup:');
    await snap('merge-request-awards', description());
    await expect
      .poll(async () => (await rest<Array<{ name: string; user: { username: string } }>>('GET', `${mrPath()}/award_emoji`)).map((a) => `${a.user.username}:${a.name}`).sort())
      .toEqual(['dana:thumbsup', 'root:rocket', 'root:thumbsup']);

    // toggling off again
    await award(description(), 'thumbsup').click();
    await expect.poll(() => award(description(), 'thumbsup').textContent()).toBe('👍1');
    expect(await award(description(), 'thumbsup').getAttribute('aria-pressed')).toBe('false');
    await expect.poll(async () => (await rest<unknown[]>('GET', `${mrPath()}/award_emoji`)).length).toBe(2);
  });

  it('awards on a note through the picker, names You first, and toggles it off', async () => {
    await note().getByRole('button', { name: 'Add reaction' }).click();
    await search().fill('tada');
    await picker().getByRole('option', { name: 'tada', exact: true }).click();
    await expect.poll(() => award(note(), 'tada').textContent()).toBe('🎉2');
    expect(await tooltipOf(award(note(), 'tada'))).toBe('You and Dana Developer reacted with :tada:');
    await snap('note-awards', note());
    await expect.poll(async () => (await rest<unknown[]>('GET', `${mrPath()}/notes/${noteId}/award_emoji`)).length).toBe(2);

    await award(note(), 'tada').click();
    await expect.poll(() => award(note(), 'tada').textContent()).toBe('🎉1');
    expect(await tooltipOf(award(note(), 'tada'))).toBe('Dana Developer reacted with :tada:');
    await expect.poll(async () => (await rest<unknown[]>('GET', `${mrPath()}/notes/${noteId}/award_emoji`)).length).toBe(1);
  });

  it('remembers the picked emoji as frequently used, after a reload', async () => {
    await visit();
    await note().getByRole('button', { name: 'Add reaction' }).click();
    await picker().getByRole('button', { name: 'Frequently used' }).waitFor();
    await picker().getByText('Frequently used', { exact: true }).waitFor();
    // the latest pick first: tada, then rocket
    const options = picker().getByRole('option');
    expect(await options.nth(0).getAttribute('aria-label')).toBe('tada');
    expect(await options.nth(1).getAttribute('aria-label')).toBe('rocket');
    expect(await page.evaluate(() => window.localStorage.getItem('frequently_used_emojis'))).toBe('tada,rocket');
    await snap('picker-frequently-used', picker());
    await search().press('Escape');
    await picker().waitFor({ state: 'detached' });
  });

  it('puts a failed award back and says so', async () => {
    await page.route('**/api/v4/projects/*/merge_requests/*/award_emoji', (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"500 Internal Server Error"}' }) : route.fallback(),
    );
    await award(description(), 'thumbsdown').click();
    await description().getByRole('alert').getByText('Something went wrong on our end.').waitFor();
    await expect.poll(() => award(description(), 'thumbsdown').textContent()).toBe('👎0');
    expect(await award(description(), 'thumbsdown').getAttribute('aria-pressed')).toBe('false');
    await snap('award-failed', description());
    await page.unroute('**/api/v4/projects/*/merge_requests/*/award_emoji');
  });
});
