import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOTS_DIR } from './browser.js';

/**
 * Saves artifacts/screenshots/<test>-<state>.png of the window only. The Changes tab is a
 * virtualised list as tall as every file together, mostly empty away from the window;
 * a full-page capture would be that blank height (and resizes the window to take it).
 */
export async function viewportShot(page: Page, test: string, state: string): Promise<string> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const path = join(SCREENSHOTS_DIR, `${test}-${state}.png`.replace(/[^\w.-]+/g, '-'));
  await page.screenshot({ path, fullPage: false });
  return path;
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Clicks a file in the Changes tab's file tree. The tree is virtualised, so the file is
 * found through its filter first (as a reader would with a long list); the filter is
 * cleared again afterwards, which keeps the chosen file highlighted.
 */
export async function chooseInTree(page: Page, path: string): Promise<void> {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const filter = page.getByRole('textbox', { name: 'Filter files' });
  await filter.fill(path);
  await page.getByRole('tree', { name: 'Changed files tree' }).getByRole('treeitem', { name: new RegExp(`^${escapeRegExp(name)}\\b`) }).click();
  await filter.fill('');
}
