import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';

/**
 * Regression tests for git argument injection (Gitea CVE-2022-42968, Gogs CVE-2024-39932,
 * Bitbucket CVE-2019-15000) and path traversal in file APIs (GitLab CVE-2023-2825, Gogs
 * CVE-2024-39931/55947, CVE-2025-8110): see security-and-reliability-lessons.md A–B.
 */
describe(`repository API against hostile refs and paths (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number };
  let pwnedDir: string;
  let mainSha: string;
  let hostile: string[];

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('hostile');
    mainSha = await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main']);
    // The directory exists, so an injected --output=<dir>/pwned would succeed in creating a file.
    pwnedDir = mkdtempSync(join(tmpdir(), 'tributary-pwned-'));
    hostile = [`--output=${pwnedDir}/pwned`, '-h', `--upload-pack=touch\${IFS}${pwnedDir}/up`, `--exec=touch\${IFS}${pwnedDir}/exec`];
    // Created straight in the bare repository (as a push could), bypassing every check of ours.
    for (const name of hostile) await fx.bareGit(project.id, ['update-ref', `refs/heads/${name}`, mainSha]);
    await fx.bareGit(project.id, ['update-ref', `refs/tags/--exec=touch\${IFS}${pwnedDir}/tag`, mainSha]);
  });

  afterAll(async () => {
    await fx?.close();
    if (pwnedDir) rmSync(pwnedDir, { recursive: true, force: true });
  });

  const nothingCreated = () => expect(readdirSync(pwnedDir)).toEqual([]);
  const enc = encodeURIComponent;

  it('answers every ref-taking endpoint with 4xx or a correct rendering, and no file appears', async () => {
    for (const name of hostile) {
      const p = `/projects/${project.id}/repository`;
      const calls: Array<[string, string, (status: number, body: any) => void]> = [
        ['GET', `${p}/branches/${enc(name)}`, (status, body) => {
          expect(status).toBe(200);
          expect(body.name).toBe(name);
          expect(body.commit.id).toBe(mainSha);
        }],
        ['GET', `${p}/tree?ref=${enc(name)}`, (status) => expect(status).toBe(400)],
        ['GET', `${p}/files/README.md?ref=${enc(name)}`, (status) => expect(status).toBe(400)],
        ['HEAD', `${p}/files/README.md?ref=${enc(name)}`, (status) => expect(status).toBe(400)],
        ['GET', `${p}/files/README.md/raw?ref=${enc(name)}`, (status) => expect(status).toBe(400)],
        ['GET', `${p}/commits?ref_name=${enc(name)}`, (status) => expect(status).toBe(400)],
        ['GET', `${p}/commits?ref_name=main&path=${enc(name)}`, (status, body) => {
          // A path named like an option is just a path (after `--`): no commits touch it.
          expect(status).toBe(200);
          expect(body).toEqual([]);
        }],
        ['GET', `${p}/commits/${enc(name)}`, (status) => expect(status).toBe(400)],
        ['GET', `${p}/commits/${enc(name)}/diff`, (status) => expect(status).toBe(400)],
        ['GET', `${p}/compare?from=${enc(name)}&to=main`, (status) => expect(status).toBe(400)],
        ['GET', `${p}/compare?from=main&to=${enc(name)}`, (status) => expect(status).toBe(400)],
        // The full ref name does not begin with "-": git reads it as a revision, after --end-of-options.
        ['GET', `${p}/tree?ref=${enc(`refs/heads/${name}`)}`, (status, body) => {
          expect(status).toBe(200);
          expect(body.map((entry: { name: string }) => entry.name)).toEqual(['README.md']);
        }],
        ['GET', `${p}/commits?ref_name=${enc(`refs/heads/${name}`)}`, (status, body) => {
          expect(status).toBe(200);
          expect(body[0].id).toBe(mainSha);
        }],
        ['GET', `${p}/compare?from=${enc(`refs/heads/${name}`)}&to=main`, (status, body) => {
          expect(status).toBe(200);
          expect(body.compare_same_ref).toBe(true);
        }],
        ['POST', `${p}/branches?branch=copy-${Math.random().toString(36).slice(2)}&ref=${enc(name)}`, (status) => expect(status).toBe(400)],
        ['POST', `${p}/branches?branch=${enc(name)}&ref=main`, (status, body) => {
          expect(status).toBe(400);
          expect(body.message).toBe('Branch name is invalid');
        }],
        ['POST', `${p}/commits`, (status) => expect(status).toBe(400)],
      ];
      for (const [method, path, check] of calls) {
        const body =
          method === 'POST' && path.endsWith('/commits')
            ? { branch: 'main', start_sha: name, commit_message: 'x', actions: [{ action: 'create', file_path: 'x', content: 'x' }] }
            : undefined;
        const response = await fx.call(method, path, { body });
        check(response.status, response.body);
        expect(response.status, `${method} ${path}`).toBeLessThan(500);
        nothingCreated();
      }
    }
    const list = await fx.root.Branches.all(project.id, { perPage: 100 });
    expect(list.map((branch) => branch.name)).toEqual(expect.arrayContaining(hostile));
    const tags = await fx.root.Tags.all(project.id);
    expect(tags.map((tag) => tag.name)).toEqual([`--exec=touch\${IFS}${pwnedDir}/tag`]);
    nothingCreated();
  });

  it('deletes a branch named like an option (204) and nothing else', async () => {
    const name = hostile[0]!;
    const response = await fx.call('DELETE', `/projects/${project.id}/repository/branches/${enc(name)}`);
    expect(response.status).toBe(204);
    expect((await fx.call('GET', `/projects/${project.id}/repository/branches/${enc(name)}`)).status).toBe(404);
    expect(await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main'])).toBe(mainSha);
    nothingCreated();
  });

  it('refuses traversal, absolute, .git and NUL paths on every files endpoint with 400, before git runs', async () => {
    const bad = ['../../etc/passwd', 'a/../../b', '/etc/passwd', '.git/config', '.GIT/HEAD', 'x/.git/hooks/post-receive', '.git./HEAD', 'a\0b', 'a//b'];
    const files = (path: string, suffix = '') => `/projects/${project.id}/repository/files/${enc(path)}${suffix}`;
    for (const path of bad) {
      const write = { branch: 'main', commit_message: 'x', content: 'x' };
      for (const [method, url, body] of [
        ['GET', files(path, '?ref=main'), undefined],
        ['HEAD', files(path, '?ref=main'), undefined],
        ['GET', files(path, '/raw?ref=main'), undefined],
        ['POST', files(path), write],
        ['PUT', files(path), write],
        ['DELETE', files(path, '?branch=main&commit_message=x'), undefined],
      ] as const) {
        const response = await fx.call(method, url, { body });
        expect(response.status, `${method} ${JSON.stringify(path)}`).toBe(400);
      }
      expect((await fx.call('GET', `/projects/${project.id}/repository/tree?path=${enc(path)}`)).status).toBe(400);
      expect((await fx.call('GET', `/projects/${project.id}/repository/commits?path=${enc(path)}`)).status).toBe(400);
    }
    // Encoded dots arrive decoded in the path segment and are refused the same way.
    const dotted = await fx.call('GET', `/projects/${project.id}/repository/files/%2e%2e%2f%2e%2e%2fetc%2fpasswd?ref=main`);
    expect(dotted.status).toBe(400);
    expect(await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main'])).toBe(mainSha);
    await fx.bareGit(project.id, ['fsck', '--no-dangling']);
  });

  it('stores a file named like an option as a file in git, and writes nothing to disk', async () => {
    const name = `--output=${pwnedDir}/file`;
    const created = await fx.call('POST', `/projects/${project.id}/repository/files/${enc(name)}`, { body: { branch: 'main', commit_message: 'odd name', content: 'x' } });
    expect(created.status).toBe(201);
    const shown = await fx.call('GET', `/projects/${project.id}/repository/files/${enc(name)}?ref=main`);
    expect(shown.status).toBe(200);
    expect(shown.body.file_path).toBe(name);
    const history = await fx.call('GET', `/projects/${project.id}/repository/commits?path=${enc(name)}`);
    expect(history.body.map((commit: { title: string }) => commit.title)).toEqual(['odd name']);
    const head = await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main']);
    const diff = await fx.call('GET', `/projects/${project.id}/repository/commits/${head}/diff`);
    expect(diff.body.map((d: { new_path: string }) => d.new_path)).toEqual([name]);
    nothingCreated();
  });

  it('refuses commit actions with hostile paths and author identities (400) and keeps the branch', async () => {
    const before = await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main']);
    const attempts = [
      { actions: [{ action: 'create', file_path: '../outside', content: 'x' }] },
      { actions: [{ action: 'move', file_path: 'moved', previous_path: '../../etc/passwd' }] },
      { actions: [{ action: 'create', file_path: '.git/hooks/post-update', content: '#!/bin/sh\n' }] },
      { actions: [{ action: 'create', file_path: 'ok.txt', content: 'x' }], author_name: 'Evil\nHeader', author_email: 'e@example.com' },
      { actions: [{ action: 'create', file_path: 'ok.txt', content: 'x' }], start_branch: '--output=/tmp/x' },
    ];
    for (const attempt of attempts) {
      const response = await fx.call('POST', `/projects/${project.id}/repository/commits`, { body: { branch: 'main', commit_message: 'x', ...attempt } });
      expect(response.status, JSON.stringify(attempt)).toBe(400);
    }
    expect(await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main'])).toBe(before);
    nothingCreated();
  });
});
