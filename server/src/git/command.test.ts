import { access, chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, gitWithoutRepository } from './command.js';
import { GitArgumentError, GitCommandError, GitOutputTooLargeError, GitTimeoutError } from './errors.js';
import { buildScenario, makeTempDir, type Scenario } from './scenarios/scenarios.js';

const REPO = '/srv/repo.git';
const exists = (path: string) => access(path).then(() => true, () => false);

describe('the command builder', () => {
  it('puts --end-of-options before revisions and -- before paths', () => {
    const argv = git(REPO).sub('log').flag('-z', '--format=%H').option('--max-count', 20).revisions('main', 'feature/x').paths('-rf', 'src/a.txt').argv();
    expect(argv).toEqual([`--git-dir=${REPO}`, 'log', '-z', '--format=%H', '--max-count=20', '--end-of-options', 'main', 'feature/x', '--', '-rf', 'src/a.txt']);
  });

  it('joins one-letter options without a separator and long ones with =', () => {
    expect(git(REPO).sub('commit-tree').option('-p', 'a'.repeat(40)).argv()).toContain(`-p${'a'.repeat(40)}`);
    expect(git(REPO).sub('log').option('--author', 'Ada').argv()).toContain('--author=Ada');
  });

  it('puts -c config before the subcommand', () => {
    expect(git(REPO).config('core.quotePath', false).sub('diff-tree').argv()).toEqual([`--git-dir=${REPO}`, '-c', 'core.quotePath=false', 'diff-tree']);
  });

  it.each([
    ['a revision beginning with -', () => git(REPO).sub('log').revisions('--output=/tmp/x')],
    ['a short option as revision', () => git(REPO).sub('log').revisions('-h')],
    ['a revision with NUL', () => git(REPO).sub('log').revisions('main\0--exec=id')],
    ['a revision with a newline', () => git(REPO).sub('cat-file').revisions('main\nrefs/heads/x')],
    ['an empty revision', () => git(REPO).sub('log').revisions('')],
    ['an option value beginning with -', () => git(REPO).sub('archive').option('--prefix', '--exec=id')],
    ['an option value with NUL', () => git(REPO).sub('archive').option('--prefix', 'x\0--exec=id')],
    ['a path with NUL', () => git(REPO).sub('log').paths('a\0b')],
    ['a revision:path whose revision begins with -', () => git(REPO).sub('ls-tree').revisionPath('-h', 'dir')],
    ['an object id that is not one', () => git(REPO).sub('commit-tree').objectIds('--help')],
    ['a relative repository path', () => git('relative/repo.git')],
  ])('refuses %s with GitArgumentError', (_name, build) => {
    expect(build).toThrow(GitArgumentError);
  });

  it('refuses flags after revisions, and revisions after paths', () => {
    expect(() => (git(REPO).sub('log').revisions('main') as ReturnType<typeof git>).flag('--all')).toThrow(/before revisions/);
    expect(() => git(REPO).sub('log').paths('a').revisions('main')).toThrow(/before paths/);
  });

  it('refuses overriding the fixed environment', async () => {
    await expect(gitWithoutRepository().sub('version').env({ HOME: '/root' }).run()).rejects.toThrow(/fixed/);
  });
});

describe('running git', () => {
  let scenario: Scenario;
  let fakeBin: string;
  const realPath = process.env.PATH;

  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    fakeBin = await makeTempDir('tributary-fake-git-');
  });
  afterAll(async () => {
    process.env.PATH = realPath;
    await scenario.cleanup();
    await rm(fakeBin, { recursive: true, force: true });
  });

  it('returns stdout as bytes, stderr as text and the exit code', async () => {
    const ok = await git(scenario.repo).sub('rev-parse').flag('--verify').revisions('main^{commit}').exec();
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout.toString().trim()).toMatch(/^[0-9a-f]{40}$/);
    const bad = await git(scenario.repo).sub('log').revisions('nope').exec();
    expect(bad.exitCode).toBe(128);
    expect(bad.stderr).toMatch(/unknown revision/);
  });

  it('run() throws GitCommandError with a classified code', async () => {
    const error = await git(scenario.repo).sub('log').revisions('nope').run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitCommandError);
    expect(error).toMatchObject({ exitCode: 128, code: 'unknown-revision', subcommand: 'log' });
  });

  it('passes stdin', async () => {
    const { stdout } = await git(scenario.repo).sub('hash-object').flag('--stdin').input('hello\n').run();
    expect(stdout.toString().trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('runs with the fixed environment and not the caller\'s', async () => {
    process.env.GIT_DIR = '/nonexistent';
    try {
      const { stdout } = await git(scenario.repo).sub('var').flag('-l').run();
      const vars = stdout.toString();
      expect(vars).not.toMatch(/^user\./m);
      expect(vars).toMatch(/^GIT_COMMITTER_IDENT=/m);
    } finally {
      delete process.env.GIT_DIR;
    }
  });

  it('kills git past the output cap', async () => {
    await expect(git(scenario.repo).sub('log').flag('--format=%H').maxOutput(50).run()).rejects.toBeInstanceOf(GitOutputTooLargeError);
  });

  it('kills git and its children at the deadline', async () => {
    const pidFile = join(fakeBin, 'child.pid');
    await writeFile(join(fakeBin, 'git'), `#!/bin/sh\nsleep 30 &\necho $! > ${pidFile}\nwait\n`);
    await chmod(join(fakeBin, 'git'), 0o755);
    process.env.PATH = `${fakeBin}:${realPath}`;
    const started = Date.now();
    await expect(git(scenario.repo).sub('log').timeout(300).run()).rejects.toBeInstanceOf(GitTimeoutError);
    expect(Date.now() - started).toBeLessThan(5_000);
    process.env.PATH = realPath;
    const child = Number((await readFile(pidFile, 'utf8')).trim());
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The grandchild died with the group: gone, or a zombie waiting for a reaper.
    const state = await readFile(`/proc/${child}/stat`, 'utf8').then((stat) => stat.split(') ')[1]?.[0], () => 'gone');
    expect(['gone', 'Z', 'X']).toContain(state);
  });

  it('never starts git for a refused argument', async () => {
    const marker = join(fakeBin, 'ran');
    await mkdir(fakeBin, { recursive: true });
    await writeFile(join(fakeBin, 'git'), `#!/bin/sh\ntouch ${marker}\n`);
    await chmod(join(fakeBin, 'git'), 0o755);
    process.env.PATH = `${fakeBin}:${realPath}`;
    try {
      await expect(Promise.resolve().then(() => git(scenario.repo).sub('log').revisions('--output=/tmp/x').run())).rejects.toBeInstanceOf(GitArgumentError);
      expect(await exists(marker)).toBe(false);
      await git(scenario.repo).sub('log').run(); // the fake git does run for a clean command
      expect(await exists(marker)).toBe(true);
    } finally {
      process.env.PATH = realPath;
    }
  });

  it('streams with spawnStream', async () => {
    const child = git(scenario.repo).sub('cat-file').flag('--batch-check').spawnStream();
    const chunks: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdin!.end('main\n');
    await new Promise((resolve) => child.on('close', resolve));
    expect(Buffer.concat(chunks).toString()).toMatch(/^[0-9a-f]{40} commit \d+\n$/);
  });
});
