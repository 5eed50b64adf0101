import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yazl from 'yazl';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { extractZip, listFiles, selectFiles, writeZip } from './archive.js';
import { gitFetchCommands } from './git-commands.js';
import { nextBackoff } from './runner.js';

const dir = mkdtempSync(join(tmpdir(), 'runner-archive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('selecting artifact files', () => {
  const files = ['README.md', 'out/a.txt', 'out/skip.log', 'out/deep/b.txt', 'coverage/index.html', '.hidden/x', 'src/main.ts'];
  it.each([
    [{ paths: ['out/'] }, ['out/a.txt', 'out/skip.log', 'out/deep/b.txt']],
    [{ paths: ['out'], exclude: ['out/*.log'] }, ['out/a.txt', 'out/deep/b.txt']],
    [{ paths: ['out/**/*.txt'] }, ['out/a.txt', 'out/deep/b.txt']],
    [{ paths: ['./README.md', 'coverage'] }, ['README.md', 'coverage/index.html']],
    [{ paths: ['.hidden'] }, ['.hidden/x']],
    [{ paths: ['../etc', '/etc/passwd', ''] }, []],
    [{ paths: [], untracked: ['src/main.ts'] }, ['src/main.ts']],
    [{ paths: ['**'], exclude: ['out/**', 'coverage'] }, ['README.md', '.hidden/x', 'src/main.ts']],
  ] as const)('%j', (options, expected) => {
    expect(selectFiles(files, options)).toEqual(expected);
  });
});

describe('zip', () => {
  it('writes what it lists and extracts it again', async () => {
    const root = join(dir, 'src');
    mkdirSync(join(root, 'a/b'), { recursive: true });
    mkdirSync(join(root, '.git'), { recursive: true });
    writeFileSync(join(root, 'a/b/c.txt'), 'c');
    writeFileSync(join(root, '.git/HEAD'), 'x');
    writeFileSync(join(root, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    symlinkSync('/etc/passwd', join(root, 'link'));
    const files = await listFiles(root);
    expect(files).toEqual(['a/b/c.txt', 'link', 'run.sh']);
    await writeZip(root, files, join(dir, 'out.zip'));
    const target = join(dir, 'target');
    mkdirSync(target);
    expect(await extractZip(join(dir, 'out.zip'), target)).toBe(2);
    expect(readFileSync(join(target, 'a/b/c.txt'), 'utf8')).toBe('c');
    expect(await listFiles(target)).toEqual(['a/b/c.txt', 'run.sh']);
  });

  it('refuses an entry that would land outside the directory (zip slip)', async () => {
    const zip = new yazl.ZipFile();
    // yazl refuses `..` itself; a hostile archive is written with a name that resolves outside anyway
    zip.addBuffer(Buffer.from('evil'), 'ok.txt');
    zip.end();
    const file = join(dir, 'evil.zip');
    await pipeline(zip.outputStream, createWriteStream(file));
    const bytes = readFileSync(file);
    // rewrite both copies of the 6-byte name (local header and central directory) to "../e.t"
    let at = bytes.indexOf('ok.txt');
    while (at !== -1) {
      bytes.write('../e.t', at);
      at = bytes.indexOf('ok.txt', at + 1);
    }
    writeFileSync(file, bytes);
    const target = join(dir, 'slip');
    mkdirSync(target);
    await expect(extractZip(file, target)).rejects.toThrow();
    expect(() => readFileSync(join(dir, 'e.t'))).toThrow();
  });

  it('refuses to write through a symlinked directory', async () => {
    const root = join(dir, 'zsrc');
    mkdirSync(join(root, 'sub'), { recursive: true });
    writeFileSync(join(root, 'sub/f.txt'), 'f');
    await writeZip(root, ['sub/f.txt'], join(dir, 'sub.zip'));
    const target = join(dir, 'ztarget');
    const outside = join(dir, 'outside');
    mkdirSync(target);
    mkdirSync(outside);
    symlinkSync(outside, join(target, 'sub'));
    await expect(extractZip(join(dir, 'sub.zip'), target)).rejects.toThrow(/outside/);
    expect(await listFiles(outside)).toEqual([]);
  });
});

describe('git commands', () => {
  const sha = 'a'.repeat(40);
  it('fetches the refspecs at the given depth and checks out the sha, options fixed with -c', () => {
    const commands = gitFetchCommands({ repoUrl: 'https://gitlab-ci-token:t@host/g/p.git', sha, refspecs: ['+refs/heads/main:refs/remotes/origin/main', '--upload-pack=evil'], depth: 20 });
    expect(commands.map((args) => args.filter((arg, i) => arg !== '-c' && args[i - 1] !== '-c'))).toEqual([
      ['init', '--quiet', '.'],
      ['remote', 'add', '--', 'origin', 'https://gitlab-ci-token:t@host/g/p.git'],
      ['fetch', '--quiet', '--prune', '--no-recurse-submodules', '--depth=20', '--end-of-options', 'origin', '+refs/heads/main:refs/remotes/origin/main'],
      ['checkout', '--quiet', '--force', '--detach', sha],
    ]);
    expect(commands[0]).toContain('core.hooksPath=/dev/null');
  });
  it('refuses a sha that is not a commit id and a URL that looks like an option', () => {
    expect(() => gitFetchCommands({ repoUrl: 'x', sha: '--help' })).toThrow();
    expect(() => gitFetchCommands({ repoUrl: '--upload-pack=x', sha })).toThrow();
  });
});

describe('backoff', () => {
  it('doubles from one second up to a minute', () => {
    const seen = [0];
    for (let i = 0; i < 8; i++) seen.push(nextBackoff(seen.at(-1)!));
    expect(seen).toEqual([0, 1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
  });
});
