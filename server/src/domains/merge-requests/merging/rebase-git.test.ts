import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../git/scenarios/scenarios.js';
import { replayCommits } from './rebase-git.js';

const run = promisify(execFile);
const ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  LC_ALL: 'C',
  GIT_AUTHOR_NAME: 'Ada Lovelace',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Grace Hopper',
  GIT_COMMITTER_EMAIL: 'grace@example.com',
};
const committer = { name: 'Rebaser', email: 'rebaser@example.com', date: new Date('2024-01-01T00:00:00Z') };

/**
 * replayCommits against the stock `git rebase` on the same history: the same commits kept
 * (a patch already upstream and a change already made upstream dropped, a commit empty from
 * the start kept), with the same trees, authors and messages, and a conflict named.
 */
describe('replayCommits (real repositories)', () => {
  let root: string;
  let work: string;
  let bare: string;
  let tick = 1_700_000_000;
  const git = async (args: string[], cwd = work) => (await run('git', args, { cwd, env: ENV })).stdout.trim();
  const commit = async (files: Record<string, string>, message: string, flags: string[] = []) => {
    for (const [path, content] of Object.entries(files)) await writeFile(join(work, path), content);
    await git(['add', '-A']);
    tick += 60;
    const date = `@${tick} +0200`;
    await run('git', ['commit', '-q', ...flags, '-m', message], { cwd: work, env: { ...ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
    return git(['rev-parse', 'HEAD']);
  };
  const history = (range: string) => git(['--git-dir', bare, 'log', '--reverse', '--format=%T %an <%ae> %ad%n%B', '--date=raw', range]);

  beforeAll(async () => {
    root = await makeTempDir('tributary-rebase-git-');
    work = join(root, 'work');
    bare = join(root, 'repo.git');
    await run('git', ['init', '-q', '-b', 'main', work], { env: ENV });
    await commit({ 'a.txt': 'a\n', 'b.txt': 'b\n' }, 'base');
    await git(['checkout', '-q', '-b', 'topic']);
    await commit({ 'one.txt': 'one\n' }, 'One\n\nwith a body');
    await commit({ 'shared.txt': 'same\n' }, 'Shared, also made upstream');
    await commit({}, 'Empty from the start', ['--allow-empty']);
    await commit({ 'a.txt': 'a changed on topic\n' }, 'Change a');
    await git(['checkout', '-q', 'main']);
    await commit({ 'up.txt': 'up\n' }, 'Upstream');
    // the same change as the topic's, with another message and a second file: not patch-equal
    await commit({ 'shared.txt': 'same\n', 'more.txt': 'more\n' }, 'Shared upstream');
    await git(['branch', 'conflicting']);
    await git(['checkout', '-q', 'conflicting']);
    await commit({ 'a.txt': 'a changed upstream\n' }, 'Change a upstream');
    await git(['checkout', '-q', 'main']);
    await run('git', ['clone', '-q', '--bare', work, bare], { env: ENV });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('keeps and drops what git rebase does, with the same trees, authors and messages', async () => {
    const [onto, head] = [await git(['rev-parse', 'main']), await git(['rev-parse', 'topic'])];
    const result = await replayCommits(bare, { onto, head, committer });
    await git(['checkout', '-q', '-b', 'stock', 'topic']);
    await run('git', ['rebase', '-q', 'main'], { cwd: work, env: ENV });
    await git(['push', '-q', bare, 'stock']);
    expect(result).toMatchObject({ kind: 'rebased', picked: 3, dropped: 1 });
    const rebased = (result as { head: string }).head;
    expect(await history(`${onto}..${rebased}`)).toBe(await history(`${onto}..refs/heads/stock`));
    expect(await git(['--git-dir', bare, 'log', '--format=%cn <%ce> %cd', '--date=raw', `${onto}..${rebased}`])).toBe(Array(3).fill('Rebaser <rebaser@example.com> 1704067200 +0000').join('\n'));
  });

  it('answers up-to-date when the head is on the target already, and names the first conflict', async () => {
    expect(await replayCommits(bare, { onto: await git(['rev-parse', 'main~2']), head: await git(['rev-parse', 'main']), committer })).toEqual({ kind: 'up-to-date' });
    const changeA = await git(['rev-parse', 'topic']);
    expect(await replayCommits(bare, { onto: await git(['rev-parse', 'conflicting']), head: changeA, committer })).toEqual({ kind: 'conflict', commit: changeA, paths: ['a.txt'] });
  });
});
