import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitArgumentError, GitCommandError, RefConflictError } from './errors.js';
import { createRef, deleteRef, refTransaction, updateRef, updateRefs, ZERO_SHA } from './ref-updates.js';
import { resolveCommit } from './refs.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';

describe('refTransaction', () => {
  it('writes an all-or-nothing update-ref -z --stdin transaction', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    expect(refTransaction([{ ref: 'refs/heads/x', newSha: a, oldSha: b }, { ref: 'refs/heads/y', newSha: a, oldSha: null }, { ref: 'refs/heads/z', newSha: null, oldSha: b }])).toBe(
      `start\0update refs/heads/x\0${a}\0${b}\0update refs/heads/y\0${a}\0${ZERO_SHA}\0delete refs/heads/z\0${b}\0prepare\0commit\0`,
    );
    expect(() => refTransaction([{ ref: 'refs/heads/z', newSha: null, oldSha: null }])).toThrow(GitArgumentError);
    expect(() => refTransaction([{ ref: 'refs/heads/x\0update refs/heads/main', newSha: a, oldSha: b }])).toThrow(GitArgumentError);
  });
});

describe('ref updates on linear-history', () => {
  let scenario: Scenario;
  let repo: string;
  let c5: string;
  let c6: string;
  const at = (ref: string) => resolveCommit(repo, ref);

  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    repo = scenario.repo;
    c6 = (await rawGit(repo, 'rev-parse', 'main')).trim();
    c5 = (await rawGit(repo, 'rev-parse', 'main~1')).trim();
  });
  afterAll(() => scenario.cleanup());

  it('creates a ref only if it does not exist', async () => {
    await createRef(repo, 'refs/heads/new', c5);
    expect(await at('refs/heads/new')).toBe(c5);
    await expect(createRef(repo, 'refs/heads/new', c6)).rejects.toMatchObject({ code: 'ref-exists' });
    await expect(createRef(repo, 'refs/heads/main/sub', c6)).rejects.toBeInstanceOf(RefConflictError); // refs/heads/main is a file
    expect(await at('refs/heads/new')).toBe(c5);
  });

  it('updates a ref only from the expected value', async () => {
    await createRef(repo, 'refs/heads/cas', c5);
    await expect(updateRef(repo, 'refs/heads/cas', c6, c6)).rejects.toMatchObject({ code: 'ref-mismatch' });
    expect(await at('refs/heads/cas')).toBe(c5);
    await updateRef(repo, 'refs/heads/cas', c6, c5);
    expect(await at('refs/heads/cas')).toBe(c6);
    await expect(updateRef(repo, 'refs/heads/missing', c6, c5)).rejects.toMatchObject({ code: 'ref-missing' });
  });

  it('deletes a ref only at the expected value', async () => {
    await createRef(repo, 'refs/heads/doomed', c5);
    await expect(deleteRef(repo, 'refs/heads/doomed', c6)).rejects.toBeInstanceOf(RefConflictError);
    expect(await at('refs/heads/doomed')).toBe(c5);
    await deleteRef(repo, 'refs/heads/doomed', c5);
    expect(await at('refs/heads/doomed')).toBeNull();
  });

  it('applies several updates all or none', async () => {
    await createRef(repo, 'refs/heads/t1', c5);
    await createRef(repo, 'refs/heads/t2', c5);
    await expect(
      updateRefs(repo, [
        { ref: 'refs/heads/t1', newSha: c6, oldSha: c5 },
        { ref: 'refs/heads/t2', newSha: c6, oldSha: c6 }, // stale
      ]),
    ).rejects.toBeInstanceOf(RefConflictError);
    expect([await at('refs/heads/t1'), await at('refs/heads/t2')]).toEqual([c5, c5]);
    await updateRefs(repo, [
      { ref: 'refs/heads/t1', newSha: c6, oldSha: c5 },
      { ref: 'refs/heads/t2', newSha: null, oldSha: c5 },
      { ref: 'refs/merge-requests/1/head', newSha: c6, oldSha: null },
    ]);
    expect([await at('refs/heads/t1'), await at('refs/heads/t2'), await at('refs/merge-requests/1/head')]).toEqual([c6, null, c6]);
  });

  it('refuses bad names and ids before git runs, and reports missing objects', async () => {
    await expect(updateRef(repo, 'main', c6, c5)).rejects.toBeInstanceOf(GitArgumentError);
    await expect(updateRef(repo, 'refs/heads/a..b', c6, null)).rejects.toBeInstanceOf(GitArgumentError);
    await expect(updateRef(repo, 'refs/heads/x', 'main', null)).rejects.toBeInstanceOf(GitArgumentError);
    await expect(updateRef(repo, 'refs/heads/x', '1'.repeat(40), null)).rejects.toSatisfy((e) => e instanceof GitCommandError && e.code === 'nonexistent-object');
  });

  it('handles a stale lock file as a conflict', async () => {
    const { writeFile, rm } = await import('node:fs/promises');
    const lock = `${repo}/refs/heads/locked.lock`;
    await createRef(repo, 'refs/heads/locked', c5);
    await writeFile(lock, '');
    try {
      await expect(updateRef(repo, 'refs/heads/locked', c6, c5)).rejects.toMatchObject({ code: 'ref-locked' });
    } finally {
      await rm(lock);
    }
  });
});
