/**
 * Git argument injection regression (the bug other forges shipped: Gitea CVE-2022-42968, Gogs 2026
 * rebase injection). git accepts refs named like options when they arrive by push; every
 * adapter function must treat them as data and must never let them become options.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from './command.js';
import { countCommits, getCommit, lastCommitForPath, listCommits } from './commits.js';
import { diff } from './diff.js';
import { GitArgumentError, RefConflictError } from './errors.js';
import { createCommit } from './plumbing-write.js';
import { deleteRef, updateRef } from './ref-updates.js';
import { listRefs, readRef, resolveCommit, resolveCommits } from './refs.js';
import { mergeBase } from './merge-base.js';
import { buildScenario, makeTempDir, rawGit, type Scenario } from './scenarios/scenarios.js';
import { readBlobAt, readTree } from './tree.js';

describe('refs named like options (malicious-branch-names)', () => {
  let scenario: Scenario;
  let pwned: string;
  let repo: string;
  let output: string;
  let main: string;
  const IDENTITY = { name: 'Mallory', email: 'm@example.com' };

  beforeAll(async () => {
    pwned = await makeTempDir('tributary-pwned-');
    scenario = await buildScenario('malicious-branch-names', pwned);
    repo = scenario.repo;
    output = `--output=${pwned}/pwned`;
    main = (await rawGit(repo, 'rev-parse', 'main')).trim();
  });
  afterAll(async () => {
    // Nothing any test did may have created a file in the attacker's directory.
    expect(await readdir(pwned)).toEqual([]);
    await scenario.cleanup();
    await rm(pwned, { recursive: true, force: true });
  });

  it('lists them as ordinary refs', async () => {
    const branches = await listRefs(repo, 'refs/heads/');
    expect(branches.map((ref) => ref.ref)).toEqual([`refs/heads/${output}`, `refs/heads/--upload-pack=touch\${IFS}${pwned}/up`, 'refs/heads/-h', 'refs/heads/main']);
    expect(branches.every((ref) => ref.commit?.id === main)).toBe(true);
    expect((await listRefs(repo, 'refs/tags/'))[0]?.ref).toBe(`refs/tags/--exec=touch\${IFS}${pwned}/exec`);
  });

  it('refuses the short names before git runs', async () => {
    await expect(resolveCommit(repo, output)).rejects.toBeInstanceOf(GitArgumentError);
    await expect(resolveCommit(repo, '-h')).rejects.toBeInstanceOf(GitArgumentError);
    await expect(resolveCommits(repo, ['main', output])).rejects.toBeInstanceOf(GitArgumentError);
    await expect(getCommit(repo, output)).rejects.toBeInstanceOf(GitArgumentError);
    await expect(listCommits(repo, { ref: output, limit: 5 })).rejects.toBeInstanceOf(GitArgumentError);
    await expect(countCommits(repo, { ref: '-h' })).rejects.toBeInstanceOf(GitArgumentError);
    await expect(lastCommitForPath(repo, output, 'file.txt')).rejects.toBeInstanceOf(GitArgumentError);
    await expect(readTree(repo, output)).rejects.toBeInstanceOf(GitArgumentError);
    await expect(readBlobAt(repo, output, 'file.txt')).rejects.toBeInstanceOf(GitArgumentError);
    await expect(diff(repo, 'main', output)).rejects.toBeInstanceOf(GitArgumentError);
    await expect(diff(repo, '-h', 'main')).rejects.toBeInstanceOf(GitArgumentError);
    await expect(mergeBase(repo, output, 'main')).rejects.toBeInstanceOf(GitArgumentError);
  });

  it('resolves the fully qualified names as revisions, never as options', async () => {
    expect(await resolveCommit(repo, `refs/heads/${output}`)).toBe(main);
    expect(await resolveCommit(repo, 'refs/heads/-h')).toBe(main);
    expect((await readRef(repo, `refs/heads/${output}`))?.commit?.id).toBe(main);
    expect((await listCommits(repo, { ref: `refs/heads/${output}`, limit: 5 }))?.commits).toHaveLength(1);
    expect((await readBlobAt(repo, `refs/heads/${output}`, 'file.txt'))?.content.toString()).toBe('safe\n');
    expect((await diff(repo, 'main', `refs/heads/${output}`))?.sameRef).toBe(true);
    // The raw builder too: git log with the qualified name after --end-of-options.
    const { stdout } = await git(repo).sub('log').flag('--format=%H').revisions(`refs/heads/${output}`).run();
    expect(stdout.toString().trim()).toBe(main);
  });

  it('commits to and moves such refs only as data', async () => {
    const { sha } = await createCommit(repo, { branch: output, startSha: main, actions: [{ action: 'create', file_path: '--output=x', content: Buffer.from('x') }], message: 'data', author: IDENTITY, committer: IDENTITY });
    expect(await resolveCommit(repo, `refs/heads/${output}`)).toBe(sha);
    await updateRef(repo, 'refs/heads/-h', sha, main);
    await expect(deleteRef(repo, `refs/heads/${output}`, main)).rejects.toBeInstanceOf(RefConflictError);
    await deleteRef(repo, `refs/heads/${output}`, sha);
    // New branches with such names are refused outright.
    await expect(createCommit(repo, { branch: '--exec=touch', startSha: main, expectedOldSha: null, actions: [], message: 'x', author: IDENTITY, committer: IDENTITY })).rejects.toThrow('Branch name is invalid');
    expect(await readdir(join(repo, 'refs/heads'))).not.toContain('--exec=touch');
  });
});
