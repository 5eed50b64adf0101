import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GitArgumentError, GitOutputTooLargeError } from './errors.js';
import { createObjectReader, type ObjectReader } from './object-reader.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';
import { readObjects } from './tree.js';

const run = promisify(execFile);
const MISSING = 'f'.repeat(40);

describe('the cat-file --batch reader', () => {
  let scenario: Scenario;
  let other: Scenario;
  let third: Scenario;
  let ids: string[];
  let reader: ObjectReader;

  beforeAll(async () => {
    [scenario, other, third] = await Promise.all([buildScenario('linear-history'), buildScenario('linear-history'), buildScenario('renamed-binary')]);
    // every object of the repository: commits, trees, blobs and the annotated tag
    ids = (await rawGit(scenario.repo, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname)')).trim().split('\n');
  });
  afterEach(() => reader?.closeAll());
  afterAll(async () => {
    await Promise.all([scenario.cleanup(), other.cleanup(), third.cleanup()]);
  });

  it('answers what a one-shot cat-file --batch answers, from one process per repository', async () => {
    reader = createObjectReader();
    const expected = await readObjects(scenario.repo, ids);
    const got = await reader.readMany(scenario.repo, ids);
    expect(got).toEqual(expected);
    expect(got.every((object) => object !== null)).toBe(true);
    expect(reader.processCount()).toBe(1);
  });

  it('answers null for an object the repository does not have, and keeps answering', async () => {
    reader = createObjectReader();
    const [first, missing, last] = await reader.readMany(scenario.repo, [ids[0]!, MISSING, ids[1]!]);
    expect(missing).toBeNull();
    expect(first?.id).toBe(ids[0]);
    expect(last?.id).toBe(ids[1]);
    expect(await reader.read(scenario.repo, ids[2]!)).toMatchObject({ id: ids[2] });
  });

  it('keeps concurrent reads of several repositories apart and in order', async () => {
    reader = createObjectReader();
    const otherIds = (await rawGit(third.repo, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname)')).trim().split('\n');
    const reads = Array.from({ length: 300 }, (_, i) => (i % 3 === 2 ? { repo: third.repo, id: otherIds[i % otherIds.length]! } : { repo: scenario.repo, id: i % 7 === 0 ? MISSING : ids[i % ids.length]! }));
    const got = await Promise.all(reads.map(({ repo, id }) => reader.read(repo, id)));
    got.forEach((object, i) => expect(object?.id ?? null).toBe(reads[i]!.id === MISSING ? null : reads[i]!.id));
    expect(reader.processCount()).toBe(2);
  });

  it('refuses anything but a full object id before git sees it', async () => {
    reader = createObjectReader();
    for (const input of ['HEAD', 'main', ':/c1', `${ids[0]}\n${ids[1]}`, `${ids[0]}^{tree}`, '--batch-all-objects', `-${ids[0]!.slice(1)}`, '', ids[0]!.toUpperCase()]) {
      await expect(reader.read(scenario.repo, input)).rejects.toThrow(GitArgumentError);
    }
    expect(reader.processCount()).toBe(0);
  });

  it('starts a new process after its process is killed, and answers the reads it owed', async () => {
    reader = createObjectReader();
    await reader.read(scenario.repo, ids[0]!);
    const [pid] = reader.processIds();
    const reads = reader.readMany(scenario.repo, ids);
    process.kill(pid!, 'SIGKILL');
    const expected = await readObjects(scenario.repo, ids);
    expect(await reads).toEqual(expected);
    expect(await reader.read(scenario.repo, ids[1]!)).toEqual(expected[1]);
    expect(reader.processIds()).not.toContain(pid);
    expect(reader.processCount()).toBe(1);
  });

  it('starts a new process after an idle one was killed', async () => {
    reader = createObjectReader();
    await reader.read(scenario.repo, ids[0]!);
    const [pid] = reader.processIds();
    process.kill(pid!, 'SIGKILL');
    await vi.waitFor(() => expect(reader.processCount()).toBe(0));
    expect(await reader.read(scenario.repo, ids[0]!)).toMatchObject({ id: ids[0] });
    expect(reader.processIds()).not.toContain(pid);
  });

  it('finds an object written after its process started', async () => {
    reader = createObjectReader();
    await reader.read(scenario.repo, ids[0]!);
    const { stdout } = await run('sh', ['-c', `printf 'written later\\n' | git --git-dir="${scenario.repo}" hash-object -w --stdin`], { encoding: 'utf8' });
    const blob = await reader.read(scenario.repo, stdout.trim());
    expect(blob?.content.toString()).toBe('written later\n');
    expect(reader.processCount()).toBe(1);
  });

  it('keeps at most maxProcesses processes, closing the least recently used idle one', async () => {
    reader = createObjectReader({ maxProcesses: 2 });
    await reader.read(scenario.repo, ids[0]!);
    await reader.read(other.repo, ids[0]!);
    const [first] = reader.processIds();
    expect(await reader.read(third.repo, (await rawGit(third.repo, 'rev-parse', 'HEAD')).trim())).not.toBeNull();
    expect(reader.processCount()).toBe(2);
    expect(reader.processIds()).not.toContain(first);
    expect(await reader.read(scenario.repo, ids[1]!)).toMatchObject({ id: ids[1] });
  });

  it('falls back to a one-shot cat-file when every process is busy', async () => {
    reader = createObjectReader({ maxProcesses: 1 });
    const reads = [reader.read(scenario.repo, ids[0]!), reader.read(other.repo, ids[0]!)];
    const [mine, theirs] = await Promise.all(reads);
    expect(mine?.id).toBe(ids[0]);
    expect(theirs?.id).toBe(ids[0]); // same scenario script, same fixed dates: same ids
    expect(reader.processCount()).toBe(1);
  });

  it('closes a process left idle', async () => {
    reader = createObjectReader({ idleMs: 20 });
    await reader.read(scenario.repo, ids[0]!);
    await vi.waitFor(() => expect(reader.processCount()).toBe(0));
    expect(await reader.read(scenario.repo, ids[0]!)).toMatchObject({ id: ids[0] });
  });

  it('reads an object of many megabytes, and the reads around it', async () => {
    reader = createObjectReader();
    const { stdout } = await run('sh', ['-c', `head -c 6000000 /dev/urandom > "${scenario.root}/large" && git --git-dir="${scenario.repo}" hash-object -w "${scenario.root}/large"`], { encoding: 'utf8' });
    const large = stdout.trim();
    const [before, blob, after] = await reader.readMany(scenario.repo, [ids[0]!, large, ids[1]!]);
    expect(blob?.size).toBe(6_000_000);
    // Buffer#equals: a deep comparison of 6 MB element by element takes the test's whole timeout
    expect(blob!.content.equals((await readObjects(scenario.repo, [large]))[0]!.content)).toBe(true);
    expect([before?.id, after?.id]).toEqual([ids[0], ids[1]]);
  });

  it('refuses an object above the size limit and stays in step for the next read', async () => {
    reader = createObjectReader({ maxObjectBytes: 10 });
    const sizes = (await rawGit(scenario.repo, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objectsize)')).trim().split('\n').map((line) => line.split(' '));
    const large = sizes.find(([, size]) => Number(size) > 10)![0]!;
    const small = sizes.find(([, size]) => Number(size) <= 10)![0]!;
    const [tooLarge, fine] = await Promise.allSettled([reader.read(scenario.repo, large), reader.read(scenario.repo, small)]);
    expect(tooLarge.status === 'rejected' && tooLarge.reason).toBeInstanceOf(GitOutputTooLargeError);
    expect(fine.status === 'fulfilled' && fine.value?.id).toBe(small);
  });
});
