import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInThroughForm } from './support/flows.js';
import { solidPng } from './support/png.js';
import { browserSession, createMergeRequestFixture, type MergeRequestFixture } from './support/session.js';

/**
 * The web app under its Content-Security-Policy (server/src/api/web/security-headers.ts): signed in,
 * a merge request's Overview with its live WebSocket subscription and an external image in the
 * description, and the Changes tab with an image diff (blob: URLs), without one violation.
 */
const T = 'content-security-policy';
/** Another origin (nothing listens on the discard port): a Markdown image from elsewhere, as GitLab allows. */
const EXTERNAL_IMAGE = 'http://127.0.0.1:9/diagram.png';

describe('the content security policy', () => {
  const session = browserSession(T);
  let page: Page;
  let fixture: MergeRequestFixture;
  /** `effectiveDirective blockedURI` of every securitypolicyviolation event, on any page load. */
  const violations: string[] = [];
  /** Console messages that mention the policy (Chromium logs every refusal there). */
  const policyMessages: string[] = [];

  beforeAll(async () => {
    fixture = await createMergeRequestFixture(session, { path: 'policed', title: 'Under the policy', description: `A picture from elsewhere:\n\n![external diagram](${EXTERNAL_IMAGE})` });
    // an added image: the Changes tab shows it from a blob: URL
    const { git } = session;
    writeFileSync(join(fixture.dir, 'pixel.png'), solidPng(16, 16, [40, 90, 220]));
    await git.git(['add', 'pixel.png'], { cwd: fixture.dir });
    await git.git(['commit', '-m', 'Add a picture'], { cwd: fixture.dir });
    await git.git(['push'], { cwd: fixture.dir });

    page = await session.openPage();
    // Through the DevTools protocol, so it runs (and reports) whatever the page's policy says.
    await page.exposeBinding('reportPolicyViolation', (_source, violation: string) => void violations.push(violation));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        (window as unknown as { reportPolicyViolation(violation: string): void }).reportPolicyViolation(`${event.effectiveDirective} ${event.blockedURI}`);
      });
    });
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) policyMessages.push(message.text());
    });
    await signInThroughForm(page, { username: 'root', password: session.server.root.password });
  });

  it('runs the merge request page, its live subscription, an external image and an image diff without a violation', async () => {
    const subscribed = new Promise<void>((resolve) => {
      page.on('websocket', (socket) => {
        if (!socket.url().endsWith('/api/graphql')) return;
        socket.on('framereceived', ({ payload }) => {
          if (String(payload).includes('"connection_ack"')) resolve();
        });
      });
    });
    const overviewPath = `/${fixture.project.path_with_namespace}/-/merge_requests/${fixture.iid}`;
    const response = await page.goto(overviewPath);
    // The policy is in force on this page (the server test checks its exact text).
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('region', { name: 'Merge status' }).getByRole('group', { name: 'Merge checks' }).getByText('Ready to merge!').waitFor();
    await subscribed;
    const external = page.getByRole('img', { name: 'external diagram' });
    expect(await external.getAttribute('src')).toBe(EXTERNAL_IMAGE);
    // Loaded or failed (nothing listens there): either way the policy was asked first.
    await expect.poll(() => external.evaluate((image: HTMLImageElement) => image.complete)).toBe(true);
    await session.snap('overview', page);

    await page.getByRole('navigation', { name: 'Merge request' }).getByRole('link', { name: /^Changes/ }).click();
    await page.waitForURL((url) => url.pathname === `${overviewPath}/diffs`);
    await page.getByRole('tree', { name: 'Changed files tree' }).getByRole('treeitem', { name: /^pixel\.png\b/ }).click();
    const picture = page.getByRole('region', { name: 'Changes' }).getByRole('img', { name: 'pixel.png', exact: true });
    await picture.waitFor();
    expect(await picture.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(16);
    await session.snap('changes', page);

    expect(violations).toEqual([]);
    expect(policyMessages).toEqual([]);
  });

  it('would see a violation: an injected inline script is refused and reported', async () => {
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.injected = "ran"';
      document.head.append(script);
    });
    await expect.poll(() => violations).toContain('script-src-elem inline');
    expect(policyMessages.join('\n')).toMatch(/inline script/i);
    expect(await page.evaluate(() => document.body.dataset.injected)).toBeUndefined();
  });
});
