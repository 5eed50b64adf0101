import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli, startTestServer, type GitCli, type TestServer } from '../server/src/test-support/server.js';
import { api } from './support/api.js';
import { launchBrowser, newPage, type LaunchedBrowser } from './support/browser.js';
import { DIFF_FIXTURE as F, pushDiffFixture } from './support/diff-fixture.js';
import { chooseInTree, escapeRegExp, viewportShot } from './support/diff-pages.js';
import { signInThroughForm } from './support/flows.js';

/**
 * The Changes tab's viewers other than text and images (viewers): the binary download viewer, the file-mode-changed notice, the
 * submodule compare link, a file over the collapse limit (starts collapsed, expands), a
 * diff over the maximum (too large, with links to the raw file), the renamed-file viewer's
 * 'Show file contents' in its loading, errored and normal states, and symbolic links.
 * One merge request of the `diff-viewers` scenario (e2e/support/diff-fixture.ts).
 */
const T = 'diff-viewers';

const SHORT = 8;

describe('diff viewers on the Changes tab', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let page: Page;
  let git: GitCli;
  let projectId = 0;
  let headSha = '';

  const changes = () => page.getByRole('region', { name: 'Changes' });
  const tree = () => page.getByRole('tree', { name: 'Changed files tree' });
  const fileHeading = (name: string | RegExp) => changes().getByRole('heading', { name, exact: typeof name === 'string' });
  /** Brings a file into the virtualised list through the tree (filtered to it, as the tree is virtualised too). */
  async function openFile(path: string, heading: string | RegExp = path) {
    await chooseInTree(page, path);
    await fileHeading(heading).waitFor();
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    git = gitCli({ url: server.url, username: 'root', password: server.root.password });
    const project = await api<{ id: number; path_with_namespace: string }>(server.url, server.root.token, 'POST', '/projects', { name: 'Viewers', path: 'viewers' });
    projectId = project.id;
    await pushDiffFixture(git, git.repoUrl(project.path_with_namespace), join(git.dir, 'viewers'));
    const mr = await api<{ iid: number }>(server.url, server.root.token, 'POST', `/projects/${projectId}/merge_requests`, { source_branch: F.source, target_branch: F.target, title: F.title });
    headSha = (await api<{ commit: { id: string } }>(server.url, server.root.token, 'GET', `/projects/${projectId}/repository/branches/${F.source}`)).commit.id;

    page = await newPage(browser, server.url);
    await signInThroughForm(page, { username: 'root', password: server.root.password });
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${mr.iid}/diffs`);
    await tree().waitFor();
  });

  afterAll(async () => {
    await git?.close();
    await browser?.close();
    await server?.close();
  });

  it('offers a binary file for download, with the bytes of the head commit', async () => {
    await openFile(F.binary);
    await changes().getByText('blob.bin is a binary file and cannot be shown as text.').waitFor();
    const download = changes().getByRole('link', { name: 'Download' });
    expect(await download.getAttribute('download')).toBe('blob.bin');
    const response = await page.request.get(new URL((await download.getAttribute('href'))!, server.url).toString());
    expect(response.status()).toBe(200);
    expect([...(await response.body())]).toEqual([0x00, 0x01, 0x02, 0x04, 0xfe, 0x00, 0x20, 0x30]);
    await viewportShot(page, T, 'binary');
  });

  it('says that only the file mode changed', async () => {
    await openFile(F.modeChanged);
    await changes().getByText('File mode changed from 100644 to 100755', { exact: true }).waitFor();
    // and the header shows the change beside the path
    await changes().getByText('100644 → 100755', { exact: true }).first().waitFor();
    await viewportShot(page, T, 'mode-changed');
  });

  it('links a submodule change to the compare page of its repository', async () => {
    await openFile(F.submodule);
    await changes().getByText(`${F.submoduleOld.slice(0, SHORT)} → ${F.submoduleNew.slice(0, SHORT)}`).waitFor();
    const compare = changes().getByRole('link', { name: `Compare ${F.submoduleOld.slice(0, SHORT)}...${F.submoduleNew.slice(0, SHORT)}` });
    expect(await compare.getAttribute('href')).toBe(`https://gitlab.example.com/acme/lib/compare/${F.submoduleOld}...${F.submoduleNew}`);
    expect(await compare.getAttribute('target')).toBe('_blank');
    await viewportShot(page, T, 'submodule');
  });

  it("starts a file over the collapse limit collapsed, and expands it to the server's patch", async () => {
    await openFile(F.collapsed);
    await changes().getByText('This diff is collapsed.').waitFor();
    expect(await changes().getByText(F.collapsedLine(1), { exact: true }).count()).toBe(0);
    await viewportShot(page, T, 'collapsed');
    const patchAsked = page.waitForRequest((request) => /\/merge_requests\/\d+\/versions\/\d+\/diffs\?path=/.test(request.url()));
    await changes().getByRole('button', { name: 'Expand', exact: true }).click();
    await patchAsked;
    await changes().getByText(F.collapsedLine(1), { exact: true }).first().waitFor();
    expect(await changes().getByText('This diff is collapsed.').count()).toBe(0);
    await viewportShot(page, T, 'collapsed-expanded');
  });

  it('shows a diff over the maximum as too large, with links to the whole file', async () => {
    await openFile(F.tooLarge);
    await changes().getByText('The changes to this file are too large to display.').waitFor();
    const raw = changes().getByRole('link', { name: 'Open raw' });
    const href = (await raw.getAttribute('href'))!;
    expect(href).toContain(`ref=${headSha}`);
    const response = await page.request.get(new URL(href, server.url).toString());
    expect(response.status()).toBe(200);
    const text = await response.text();
    expect(text.split('\n')).toHaveLength(F.tooLargeLines + 1);
    expect(text.startsWith('line 1 of a file')).toBe(true);
    await changes().getByRole('link', { name: `View file @ ${headSha.slice(0, SHORT)}`, exact: true }).waitFor();
    await viewportShot(page, T, 'too-large');
  });

  it('shows a renamed file’s contents on request: loading, then an error that can be dismissed, then the contents', async () => {
    await openFile(F.renamedTo, new RegExp(`${escapeRegExp(F.renamedFrom)}.*${escapeRegExp(F.renamedTo)}`));
    await changes().getByText('File renamed with no changes.').waitFor();
    const show = changes().getByRole('button', { name: 'Show file contents' });

    // Hold the request for the file, then fail it: the browser's own network, not the server, is the fault.
    const isRaw = (url: URL) => url.pathname.endsWith(`/projects/${projectId}/repository/files/${encodeURIComponent(F.renamedTo)}/raw`);
    const failure = { status: 500, contentType: 'application/json', body: JSON.stringify({ message: '500 Internal Server Error' }) };
    let release: (route: Route) => void = () => undefined;
    const held = new Promise<Route>((resolve) => (release = resolve));
    let requests = 0;
    // The first request waits (the loading state); it and the app's retries then fail.
    await page.route(isRaw, (route) => (++requests === 1 ? release(route) : route.fulfill(failure)));
    await show.click();
    await changes().getByText('Loading file contents').waitFor({ state: 'attached' });
    expect(await show.count()).toBe(0);
    await viewportShot(page, T, 'renamed-loading');

    await (await held).fulfill(failure);
    const alert = changes().getByRole('alert');
    await alert.getByText('Unable to load file contents. Try again later.').waitFor();
    await show.waitFor();
    await viewportShot(page, T, 'renamed-error');
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await alert.waitFor({ state: 'detached' });

    await page.unroute(isRaw);
    await show.click();
    await changes().getByText(F.renamedText, { exact: true }).waitFor();
    expect(await changes().getByText('File renamed with no changes.').count()).toBe(0);
    await viewportShot(page, T, 'renamed-contents');
  });

  it('shows symbolic links by their targets', async () => {
    await openFile(F.symlinkChanged);
    const header = fileHeading(F.symlinkChanged).locator('..');
    await header.getByRole('img', { name: 'Symbolic link' }).waitFor();
    await changes().getByText('target-a.txt', { exact: true }).first().waitFor();
    await changes().getByText('target-b.txt', { exact: true }).first().waitFor();
    await fileHeading(F.symlinkAdded).waitFor();
    await viewportShot(page, T, 'symlinks');
  });
});
