import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli, startTestServer, type GitCli, type TestServer } from '../server/src/test-support/server.js';
import { api } from './support/api.js';
import { launchBrowser, newPage, type LaunchedBrowser } from './support/browser.js';
import { shot, signInThroughForm } from './support/flows.js';

/**
 * Revert from the merged panel: a merged merge request is reverted on a
 * new branch `revert-<short sha>` cut from the target, and a merge request for it opens; for
 * someone who cannot push, the branch is in their fork (made for it).
 */
const T = 'merge-widget-pick';

function write(root: string, path: string, content: string): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

describe('revert and cherry-pick from the merge widget', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let page: Page;
  let git: GitCli;
  const rest = <R = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: Record<string, unknown>) => api<R>(server.url, server.root.token, method, path, body);
  const widget = () => page.getByRole('region', { name: 'Merge status' });

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    git = gitCli({ url: server.url, username: 'root', password: server.root.password });
    page = await newPage(browser, server.url);
    page.on('pageerror', (error) => console.error(`[${T}] page error: ${error.message}`));
    await signInThroughForm(page, { username: 'root', password: server.root.password });
  });

  afterAll(async () => {
    await git?.close();
    await browser?.close();
    await server?.close();
  });

  /** A project `path` whose merge request !1 (feature → main, adding feature.txt) is merged; returns its merge commit. */
  async function mergedProject(path: string): Promise<{ project: { id: number; path_with_namespace: string }; iid: number; merged: { merge_commit_sha: string } }> {
    const project = await rest<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: path, path, visibility: 'private' });
    const dir = join(git.dir, path);
    mkdirSync(dir, { recursive: true });
    await git.git(['init', '--initial-branch=main'], { cwd: dir });
    write(dir, 'README.md', `# ${path}\n`);
    await git.git(['add', '.'], { cwd: dir });
    await git.git(['commit', '-m', 'Start'], { cwd: dir });
    await git.git(['remote', 'add', 'origin', git.repoUrl(project.path_with_namespace)], { cwd: dir });
    await git.git(['push', '--set-upstream', 'origin', 'main'], { cwd: dir });
    await git.git(['switch', '--create', 'feature'], { cwd: dir });
    write(dir, 'feature.txt', 'A feature\n');
    await git.git(['add', '.'], { cwd: dir });
    await git.git(['commit', '-m', 'Add the feature'], { cwd: dir });
    await git.git(['push', '--set-upstream', 'origin', 'feature'], { cwd: dir });
    const { iid } = await rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Add the feature' });
    // merged as soon as the server has checked it (a merge before that answers 405)
    let merged = null as { merge_commit_sha: string } | null;
    await expect
      .poll(
        async () => {
          merged = await rest<{ merge_commit_sha: string }>('PUT', `/projects/${project.id}/merge_requests/${iid}/merge`).catch(() => null);
          return merged !== null;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    return { project, iid, merged: merged! };
  }

  it('reverts a merged merge request into a new branch and opens its merge request', async () => {
    const { project, iid, merged } = await mergedProject('pick');
    const short = merged.merge_commit_sha.slice(0, 8);

    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await widget().getByText('Merged by Administrator').waitFor();
    await widget().getByRole('button', { name: 'Cherry-pick', exact: true }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, T, 'merged-panel');
    await widget().getByRole('button', { name: 'Revert', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: 'Revert this merge request' });
    await dialog.waitFor();
    // the branch is chosen from the project's branches
    await dialog.getByRole('button', { name: 'Revert in branch: main' }).click();
    await page.getByRole('option', { name: 'main' }).waitFor();
    await shot(page, T, 'revert-branches');
    await page.getByRole('option', { name: 'main' }).click();
    await dialog.getByRole('button', { name: 'Revert in branch: main' }).waitFor();
    expect(await dialog.getByRole('checkbox', { name: 'Start a new merge request with these changes' }).isChecked()).toBe(true);
    await shot(page, T, 'revert-dialog');
    await dialog.getByRole('button', { name: 'Revert', exact: true }).click();

    // The new merge request opens: from revert-<short sha> into main, titled after the revert commit.
    await page.waitForURL(/\/-\/merge_requests\/2(\?|$|\/)/);
    await page.getByText(`Revert "Merge branch 'feature' into 'main'"`).first().waitFor();
    const created = await rest<{ source_branch: string; target_branch: string; title: string }>('GET', `/projects/${project.id}/merge_requests/2`);
    expect(created).toMatchObject({ source_branch: `revert-${short}`, target_branch: 'main' });
    const files = await rest<Array<{ path: string }>>('GET', `/projects/${project.id}/repository/tree?ref=revert-${short}`);
    expect(files.map((file) => file.path)).toEqual(['README.md']);
    await shot(page, T, 'revert-merge-request');
  });

  it('reverts into the fork of someone who cannot push, and opens the merge request from it', async () => {
    const { project, iid, merged } = await mergedProject('pick-fork');
    const short = merged.merge_commit_sha.slice(0, 8);
    const reporter = await server.createUser({ username: 'rita', name: 'Rita Reporter' });
    await rest('POST', `/projects/${project.id}/members`, { user_id: reporter.id, access_level: 20 });
    const other = await newPage(browser, server.url);
    try {
      await signInThroughForm(other, { username: 'rita', password: reporter.password });
      await other.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
      await other.getByRole('region', { name: 'Merge status' }).getByRole('button', { name: 'Revert', exact: true }).click();
      const dialog = other.getByRole('dialog', { name: 'Revert this merge request' });
      await dialog.getByText("You can't push to this project: the change goes on a new branch in your fork", { exact: false }).waitFor();
      expect(await dialog.getByRole('checkbox', { name: 'Start a new merge request with these changes' }).count()).toBe(0);
      await shot(other, T, 'revert-in-fork-dialog');
      await dialog.getByRole('button', { name: 'Revert', exact: true }).click();

      // The new merge request, in this project, comes from a branch of Rita's fork (made for it).
      await other.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/merge_requests/2`);
      await other.getByText(`Revert "Merge branch 'feature' into 'main'"`).first().waitFor();
      await other.evaluate(() => window.scrollTo(0, 0));
      await shot(other, T, 'revert-in-fork-merge-request');
      const forks = await rest<Array<{ id: number; path_with_namespace: string }>>('GET', `/projects/${project.id}/forks`);
      expect(forks.map((fork) => fork.path_with_namespace)).toEqual(['rita/pick-fork']);
      const created = await rest<{ source_project_id: number; target_project_id: number; source_branch: string }>('GET', `/projects/${project.id}/merge_requests/2`);
      expect(created).toMatchObject({ source_project_id: forks[0]!.id, target_project_id: project.id, source_branch: `revert-${short}` });
      const files = await rest<Array<{ path: string }>>('GET', `/projects/${forks[0]!.id}/repository/tree?ref=revert-${short}`);
      expect(files.map((file) => file.path)).toEqual(['README.md']);
    } finally {
      await other.context().close();
    }
  });
});
