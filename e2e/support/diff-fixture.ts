import { chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GitCli } from '../../server/src/test-support/server.js';

/**
 * The `diff-viewers` scenario: `main`, and `feature` one commit ahead with one change of
 * every kind the Changes tab has a viewer for. Built with the stock git client and pushed
 * over smart HTTP; file names are exported so the tests look for the same ones.
 */
export const DIFF_FIXTURE = {
  source: 'feature',
  target: 'main',
  title: 'Every kind of change',
  binary: 'data/blob.bin',
  modeChanged: 'bin/run.sh',
  submodule: 'vendor/lib',
  submoduleUrl: 'https://gitlab.example.com/acme/lib.git',
  submoduleOld: '1111111111111111111111111111111111111111',
  submoduleNew: '2222222222222222222222222222222222222222',
  renamedFrom: 'docs/old-name.md',
  renamedTo: 'docs/new-name.md',
  renamedText: 'This page only moved.',
  symlinkChanged: 'links/current',
  symlinkAdded: 'links/added',
  /** A patch over the collapse limit (10 % of 200 KiB), under the maximum. */
  collapsed: 'big/collapsed.txt',
  collapsedLine: (n: number) => `collapsed line ${n} of the long file, rewritten on the feature branch`,
  collapsedLines: 700,
  /** A patch over the maximum (200 KiB). */
  tooLarge: 'big/too-large.txt',
  tooLargeLines: 5000,
  /** Small text files after the others in the tree, so the diff is long enough to scroll. */
  smallFiles: Array.from({ length: 24 }, (_, i) => `src/module-${String(i + 1).padStart(2, '0')}.ts`),
  smallLine: (i: number) => `export const VALUE_${i + 1} = ${(i + 1) * 10};`,
  /** A text file the merge request changes, and the single-file editor changes again. */
  editable: 'src/greeting.ts',
  editableLine: 'export const GREETING = "Hello";',
};

function write(root: string, path: string, content: string | Buffer): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function link(root: string, path: string, target: string): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  rmSync(file, { force: true });
  symlinkSync(target, file);
}

const F = DIFF_FIXTURE;

async function gitlink(git: GitCli, root: string, sha: string): Promise<void> {
  await git.git(['update-index', '--add', '--cacheinfo', `160000,${sha},${F.submodule}`], { cwd: root });
}

/** Builds the scenario in `root` and pushes both branches to `cloneUrl`. */
export async function pushDiffFixture(git: GitCli, cloneUrl: string, root: string): Promise<void> {
  mkdirSync(root, { recursive: true });
  await git.git(['init', '--initial-branch=main'], { cwd: root });
  write(root, 'README.md', '# Diff viewers\n');
  write(root, F.binary, Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff, 0x00, 0x10]));
  write(root, F.modeChanged, '#!/bin/sh\necho "run"\n');
  write(root, '.gitmodules', `[submodule "${F.submodule}"]\n\tpath = ${F.submodule}\n\turl = ${F.submoduleUrl}\n`);
  write(root, F.renamedFrom, `# A page\n\n${F.renamedText}\n`);
  write(root, 'links/target-a.txt', 'target a\n');
  write(root, 'links/target-b.txt', 'target b\n');
  link(root, F.symlinkChanged, 'target-a.txt');
  write(root, F.collapsed, 'the long file starts short\n');
  write(root, F.tooLarge, 'the huge file starts short\n');
  F.smallFiles.forEach((path, i) => write(root, path, `// module ${i + 1}\nexport const VALUE_${i + 1} = 0;\n`));
  write(root, F.editable, 'export const GREETING = "Hi";\n');
  await git.git(['add', '.'], { cwd: root });
  await gitlink(git, root, F.submoduleOld);
  await git.git(['commit', '-m', 'Start'], { cwd: root });

  await git.git(['switch', '--create', F.source], { cwd: root });
  write(root, F.binary, Buffer.from([0x00, 0x01, 0x02, 0x04, 0xfe, 0x00, 0x20, 0x30]));
  chmodSync(join(root, F.modeChanged), 0o755);
  mkdirSync(dirname(join(root, F.renamedTo)), { recursive: true });
  renameSync(join(root, F.renamedFrom), join(root, F.renamedTo));
  link(root, F.symlinkChanged, 'target-b.txt');
  link(root, F.symlinkAdded, 'target-a.txt');
  write(root, F.collapsed, `${Array.from({ length: F.collapsedLines }, (_, n) => F.collapsedLine(n + 1)).join('\n')}\n`);
  write(root, F.tooLarge, `${Array.from({ length: F.tooLargeLines }, (_, n) => `line ${n + 1} of a file whose diff is over the maximum patch size`).join('\n')}\n`);
  F.smallFiles.forEach((path, i) => write(root, path, `// module ${i + 1}\n${F.smallLine(i)}\n`));
  write(root, F.editable, `${F.editableLine}\n`);
  await git.git(['add', '--all'], { cwd: root });
  await gitlink(git, root, F.submoduleNew);
  await git.git(['commit', '-m', F.title], { cwd: root });

  await git.git(['remote', 'add', 'origin', cloneUrl], { cwd: root });
  await git.git(['push', '--set-upstream', 'origin', F.target, F.source], { cwd: root });
}
