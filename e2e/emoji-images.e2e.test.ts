import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { shot } from './support/flows.js';
import { browserSession, createMergeRequestFixture } from './support/session.js';

/**
 * Emoji as images where the browser has no colour emoji font (this machine's headless Chromium
 * has none): the award buttons, the picker's visible rows and Markdown `:emoji:` show Twemoji
 * images served from our own origin, with the emoji's name as alt; the picker loads only the
 * images of the rows it renders.
 */
const T = 'emoji-images';

describe('emoji images', () => {
  const session = browserSession(T);
  let page: Page;
  let project: { id: number; path_with_namespace: string };
  let iid = 0;
  const emojiRequests: string[] = [];

  const description = () => page.getByRole('region', { name: 'Description' });
  const award = (scope: Locator, name: string) => scope.locator(`[data-emoji-name="${name}"]`);
  const picker = () => page.getByRole('dialog', { name: 'Add reaction' });
  const naturalWidth = (image: Locator) => image.evaluate((element) => (element as HTMLImageElement).naturalWidth);

  beforeAll(async () => {
    ({ project, iid } = await createMergeRequestFixture(session, { path: 'emoji', title: 'Emoji images', description: 'Ship it :rocket: :tada:' }));
    page = await session.signIn();
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/emoji/')) emojiRequests.push(path);
    });
  });

  it('shows the votes as images with the emoji name as alt, keeping the buttons text', async () => {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    const thumbsUp = award(description(), 'thumbsup').getByRole('img', { includeHidden: true, name: ':thumbsup:' });
    await thumbsUp.waitFor();
    await expect.poll(() => naturalWidth(thumbsUp)).toBeGreaterThan(0);
    expect(await thumbsUp.getAttribute('src')).toBe('/emoji/1f44d.svg');
    expect(await award(description(), 'thumbsdown').locator('img').getAttribute('alt')).toBe(':thumbsdown:');
    expect(await award(description(), 'thumbsup').textContent()).toBe('👍0');
    await shot(page, T, 'votes');
  });

  it('shows Markdown emoji as images', async () => {
    const rocket = description().locator('gl-emoji[data-name="rocket"] img');
    await rocket.waitFor();
    expect(await rocket.getAttribute('alt')).toBe(':rocket:');
    await expect.poll(() => naturalWidth(rocket)).toBeGreaterThan(0);
    expect(await description().locator('gl-emoji[data-name="rocket"]').textContent()).toBe('🚀');
  });

  it('shows the picker as images, loading only the rows it renders', async () => {
    emojiRequests.length = 0;
    await description().getByRole('button', { name: 'Add reaction' }).click();
    const grinning = picker().getByRole('option', { name: 'grinning', exact: true });
    await grinning.waitFor();
    const image = grinning.locator('img');
    expect(await image.getAttribute('alt')).toBe(':grinning:');
    await expect.poll(() => naturalWidth(image)).toBeGreaterThan(0);
    const rendered = await picker().getByRole('option').count();
    expect(rendered).toBeLessThan(120);
    expect(await picker().locator('img').count()).toBeLessThan(140);
    // the images asked for are those of the rendered options and the category tabs, not the whole list
    expect(new Set(emojiRequests).size).toBeLessThan(140);
    await shot(page, T, 'picker');
    await page.keyboard.press('Escape');
    await picker().waitFor({ state: 'detached' });
  });
});
