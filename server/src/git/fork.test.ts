import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkRepository } from './fork.js';
import { readRef } from './refs.js';
import { createRef } from './ref-updates.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';

describe('forkRepository on linear-history', () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    const main = (await rawGit(scenario.repo, 'rev-parse', 'main')).trim();
    // Server-private refs of the source must not travel to the fork.
    await createRef(scenario.repo, 'refs/merge-requests/1/head', main);
    await createRef(scenario.repo, `refs/keep-around/${main}`, main);
    await rawGit(scenario.repo, 'repack', '-a', '-d', '-q');
  });
  afterAll(() => scenario.cleanup());

  it('copies branches, tags and HEAD, hard-links the objects and drops the remote', async () => {
    const fork = join(scenario.root, 'fork', 'fork.git');
    await forkRepository(scenario.repo, fork);
    const refs = (await rawGit(fork, 'for-each-ref', '--format=%(refname)')).trim().split('\n');
    expect(refs).toEqual(['refs/heads/feature/x', 'refs/heads/main', 'refs/tags/light', 'refs/tags/v1.0']);
    expect((await readRef(fork, 'refs/heads/main'))?.commit?.id).toBe((await readRef(scenario.repo, 'refs/heads/main'))?.commit?.id);
    expect((await rawGit(fork, 'symbolic-ref', 'HEAD')).trim()).toBe('refs/heads/main');
    const config = await rawGit(fork, 'config', '--local', '--list');
    expect(config).not.toMatch(/^remote\./m);
    expect(config).toMatch(/^receive\.fsckobjects=true$/m);
    const pack = join(fork, 'objects', 'pack');
    const packFile = (await readdir(pack)).find((name) => name.endsWith('.pack'))!;
    expect((await stat(join(pack, packFile))).nlink).toBe(2); // shared with the source, not copied
  });

  it('refuses relative paths and an existing target', async () => {
    await expect(forkRepository('relative.git', join(scenario.root, 'x.git'))).rejects.toThrow(/absolute/);
    await expect(forkRepository(scenario.repo, scenario.repo)).rejects.toThrow(/already exists/);
  });
});
