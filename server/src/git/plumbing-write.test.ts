import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../platform/errors.js';
import { getCommit } from './commits.js';
import { CommitActionError, InvalidTreePathError, RefConflictError } from './errors.js';
import { createCommit, type CreateCommitInput } from './plumbing-write.js';
import { resolveCommit } from './refs.js';
import { buildScenario, makeTempDir, rawGit, type Scenario } from './scenarios/scenarios.js';
import { createBareRepository } from './storage.js';
import { readBlobAt, readTree } from './tree.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', date: new Date('2024-05-01T10:00:00Z') };
const GRACE = { name: 'Grace Hopper', email: 'grace@example.com', date: new Date('2024-05-01T10:05:00Z') };
const text = (value: string) => Buffer.from(value);

function input(overrides: Partial<CreateCommitInput>): CreateCommitInput {
  return { branch: 'main', startSha: null, actions: [], message: 'Change\n', author: ADA, committer: GRACE, ...overrides };
}

describe('createCommit in an empty repository', () => {
  it('writes the first commit without a work tree', async () => {
    const dir = await makeTempDir();
    const repo = join(dir, 'empty.git');
    await createBareRepository(repo, 'main');
    const { sha } = await createCommit(repo, input({ actions: [{ action: 'create', file_path: 'README.md', content: text('# Hello\n') }], message: 'Initial commit' }));
    expect(await resolveCommit(repo, 'refs/heads/main')).toBe(sha);
    const commit = await getCommit(repo, sha);
    expect(commit).toMatchObject({ message: 'Initial commit', parent_ids: [], author_name: 'Ada Lovelace', authored_date: ADA.date, committer_email: 'grace@example.com', committed_date: GRACE.date });
    expect((await readBlobAt(repo, sha, 'README.md'))?.content.toString()).toBe('# Hello\n');
    await rawGit(repo, 'fsck', '--strict'); // throws on any problem
    await rm(dir, { recursive: true, force: true });
  });
});

describe('createCommit on linear-history', () => {
  let scenario: Scenario;
  let repo: string;
  const tip = () => resolveCommit(repo, 'refs/heads/main');

  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    repo = scenario.repo;
  });
  afterAll(() => scenario.cleanup());

  it('applies every action kind in one commit', async () => {
    const start = (await tip())!;
    const { sha } = await createCommit(
      repo,
      input({
        startSha: start,
        message: 'Subject\n\nBody with ünïcödé\n',
        actions: [
          { action: 'create', file_path: 'bin/tool', content: text('#!/bin/sh\n'), execute_filemode: true },
          { action: 'update', file_path: 'README.md', content: text('new readme\n') },
          { action: 'delete', file_path: 'docs/guide.md' },
          { action: 'move', file_path: 'lib/a.txt', previous_path: 'src/a.txt' },
          { action: 'chmod', file_path: 'lib/a.txt', execute_filemode: true },
          { action: 'create', file_path: 'new\nline -rf :(exclude)x.txt', content: text('odd\n') },
        ],
      }),
    );
    expect(await tip()).toBe(sha);
    const commit = await getCommit(repo, sha);
    expect(commit).toMatchObject({ parent_ids: [start], message: 'Subject\n\nBody with ünïcödé\n', title: 'Subject' });
    const tree = await readTree(repo, sha, undefined, { recursive: true });
    expect(tree?.filter((e) => e.type === 'blob').map((e) => [e.path, e.mode])).toEqual([
      ['README.md', '100644'],
      ['bin/tool', '100755'],
      ['lib/a.txt', '100755'],
      ['new\nline -rf :(exclude)x.txt', '100644'],
    ]);
    expect((await readBlobAt(repo, sha, 'lib/a.txt'))?.content.toString()).toBe('one\ntwo\nthree\n');
    await rawGit(repo, 'fsck', '--strict');
  });

  it('refuses invalid actions and leaves the branch alone', async () => {
    const start = (await tip())!;
    const attempt = (actions: CreateCommitInput['actions']) => createCommit(repo, input({ startSha: start, actions }));
    await expect(attempt([{ action: 'create', file_path: 'README.md', content: text('x') }])).rejects.toThrow(new CommitActionError('A file with this name already exists', 'README.md'));
    await expect(attempt([{ action: 'update', file_path: 'nope.txt', content: text('x') }])).rejects.toThrow("A file with this name doesn't exist");
    for (const path of ['../x', '/abs', 'a//b', '.git/config', 'x/.git/hooks/post-receive', 'a\0b']) {
      await expect(attempt([{ action: 'create', file_path: path, content: text('x') }])).rejects.toBeInstanceOf(InvalidTreePathError);
    }
    expect(await tip()).toBe(start);
  });

  it('loses a race cleanly: exactly one of two commits on the same start lands', async () => {
    const start = (await tip())!;
    const results = await Promise.allSettled(
      ['one', 'two'].map((name) => createCommit(repo, input({ startSha: start, actions: [{ action: 'create', file_path: `${name}.txt`, content: text(name) }] }))),
    );
    const landed = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(landed).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(RefConflictError);
    expect(await tip()).toBe((landed[0] as PromiseFulfilledResult<{ sha: string }>).value.sha);
  });

  it('refuses a stale expected tip', async () => {
    const start = (await tip())!;
    const parent = (await resolveCommit(repo, 'main~1'))!;
    await expect(createCommit(repo, input({ startSha: parent, actions: [{ action: 'create', file_path: 'stale.txt' }] }))).rejects.toBeInstanceOf(RefConflictError);
    expect(await tip()).toBe(start);
  });

  it('creates a new branch from a start commit, and refuses to create one that exists', async () => {
    const start = (await tip())!;
    const { sha } = await createCommit(repo, input({ branch: 'topic/new', startSha: start, expectedOldSha: null, actions: [{ action: 'create', file_path: 'topic.txt' }] }));
    expect(await resolveCommit(repo, 'refs/heads/topic/new')).toBe(sha);
    expect(await tip()).toBe(start);
    await expect(createCommit(repo, input({ branch: 'topic/new', startSha: start, expectedOldSha: null, actions: [] }))).rejects.toBeInstanceOf(RefConflictError);
  });

  it('overwrites a branch when told its current tip (force)', async () => {
    const current = (await resolveCommit(repo, 'refs/heads/feature/x'))!;
    const main = (await tip())!;
    const { sha } = await createCommit(repo, input({ branch: 'feature/x', startSha: main, expectedOldSha: current, actions: [] }));
    expect(await getCommit(repo, sha)).toMatchObject({ parent_ids: [main] });
  });

  it('refuses invalid new branch names and identities', async () => {
    const start = (await tip())!;
    for (const branch of ['--output=/tmp/x', '-h', 'a..b', 'HEAD', 'a'.repeat(40)]) {
      await expect(createCommit(repo, input({ branch, startSha: start, expectedOldSha: null }))).rejects.toBeInstanceOf(ValidationError);
    }
    await expect(createCommit(repo, input({ startSha: start, author: { name: 'Eve\nInjected: x', email: 'e@x' } }))).rejects.toBeInstanceOf(ValidationError);
    await expect(createCommit(repo, input({ startSha: start, author: { name: 'Eve', email: '<e@x>' } }))).rejects.toBeInstanceOf(ValidationError);
    expect(await tip()).toBe(start);
  });
});

describe('createCommit over a symlink (renamed-binary)', () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await buildScenario('renamed-binary');
  });
  afterAll(() => scenario.cleanup());

  it('stores a regular file at the symlink path and never writes through it', async () => {
    const start = (await resolveCommit(scenario.repo, 'main'))!;
    const { sha } = await createCommit(scenario.repo, input({ startSha: start, actions: [{ action: 'update', file_path: 'pointer', content: text('/etc/passwd\n') }] }));
    expect(await readBlobAt(scenario.repo, sha, 'pointer')).toMatchObject({ mode: '100644' });
    expect((await readBlobAt(scenario.repo, sha, 'new.txt'))?.content.toString()).toMatch(/^1\n/); // the link target is untouched
  });
});
