import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';
import { solidPng } from './support/png.js';

/**
 * The project page renders README.md as GitLab does: Markdown on the server, relative links to
 * the repository's files at the shown ref, relative images from its raw files; raw HTML inert.
 */
const session = browserSession('readme');

describe('README on the project page', () => {
  let page: Page;
  let project: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Readme Lab', path: 'readme-lab', visibility: 'private' });
    await session.rest('POST', `/projects/${project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'A README with links and a logo',
      actions: [
        {
          action: 'create',
          file_path: 'README.md',
          content: '# Readme Lab\n\nRead the [guide](docs/guide.md) first.\n\n![Project logo](img/logo.png)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<img src="x" onerror="document.title=\'pwned\'">\n',
        },
        { action: 'create', file_path: 'docs/guide.md', content: '# Guide\n' },
        { action: 'create', file_path: 'img/logo.png', content: solidPng(24, 24, [31, 136, 61]).toString('base64'), encoding: 'base64' },
      ],
    });
    page = await session.signIn();
  });

  it('renders the README with a heading, a table, a working relative link and a loaded relative image', async () => {
    await page.goto(`/${project.path_with_namespace}`);
    const readme = page.getByRole('region', { name: 'README.md' });
    // The first render of a server loads the Markdown renderer (every highlight.js language).
    await readme.getByRole('heading', { name: 'Readme Lab' }).waitFor({ timeout: 60_000 });
    await readme.getByRole('table').waitFor();
    const logo = readme.getByRole('img', { name: 'Project logo' });
    await logo.waitFor();
    await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(24);
    expect(await page.title()).toBe('Administrator / Readme Lab · Tributary');
    await session.snap('rendered', page);

    await readme.getByRole('link', { name: 'guide' }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/blob/main/docs/guide.md`);
    await page.getByText('# Guide').first().waitFor();
    expect(await page.title()).not.toBe('pwned');
  });

  async function projectWith(path: string, files: Array<{ file_path: string; content: string }>) {
    const made = await session.rest<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: path, path, visibility: 'private' });
    await session.rest('POST', `/projects/${made.id}/repository/commits`, { branch: 'main', commit_message: 'README', actions: files.map((file) => ({ action: 'create', ...file })) });
    return made;
  }

  it('renders README.adoc with Asciidoctor: title, table, a relative link into the repository, raw HTML inert', async () => {
    const adoc = await projectWith('adoc-lab', [
      {
        file_path: 'README.adoc',
        content: '= AsciiDoc Lab\n\nSee the link:docs/guide.adoc[guide].\n\n|===\n|Name |Value\n|answer |42\n|===\n\n++++\n<img src="x" onerror="document.title=\'pwned\'">\n++++\n',
      },
      { file_path: 'docs/guide.adoc', content: '= Guide\n' },
    ]);
    await page.goto(`/${adoc.path_with_namespace}`);
    const readme = page.getByRole('region', { name: 'README.adoc' });
    await readme.getByRole('heading', { name: 'AsciiDoc Lab' }).waitFor({ timeout: 60_000 });
    await readme.getByRole('cell', { name: 'answer' }).waitFor();
    await session.snap('asciidoc', page);
    expect(await page.title()).not.toBe('pwned');
    await readme.getByRole('link', { name: 'guide' }).click();
    await page.waitForURL((url) => url.pathname === `/${adoc.path_with_namespace}/-/blob/main/docs/guide.adoc`);
  });

  it('shows README.rst as plain text with a note, and a plain README as preformatted text', async () => {
    const rst = await projectWith('rst-lab', [{ file_path: 'README.rst', content: 'RST Lab\n=======\n\nSome *emphasis* here.\n' }]);
    await page.goto(`/${rst.path_with_namespace}`);
    const readme = page.getByRole('region', { name: 'README.rst' });
    await readme.getByText('reStructuredText is shown as plain text.').waitFor();
    expect(await readme.locator('pre').innerText()).toBe('RST Lab\n=======\n\nSome *emphasis* here.\n');
    await session.snap('restructuredtext', page);

    const plain = await projectWith('plain-lab', [{ file_path: 'README', content: 'Plain  text\n  keeps   its spacing\n' }]);
    await page.goto(`/${plain.path_with_namespace}`);
    const text = page.getByRole('region', { name: 'README' });
    await text.locator('pre').waitFor();
    expect(await text.locator('pre').innerText()).toBe('Plain  text\n  keeps   its spacing\n');
  });
});
