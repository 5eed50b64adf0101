import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchCommit, hasObject } from './fetch-commit.js';
import { GitArgumentError } from './errors.js';
import { listRefNames } from './refs.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';
import { createBareRepository } from './storage.js';

describe('fetchCommit between two repositories', () => {
  let scenario: Scenario;
  let target: string;
  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    target = join(scenario.root, 'target.git');
    await createBareRepository(target, 'main');
  });
  afterAll(() => scenario.cleanup());

  it('copies a commit that is not a branch tip, with its history, and moves no ref', async () => {
    const sha = (await rawGit(scenario.repo, 'rev-parse', 'main~2')).trim();
    expect(await hasObject(target, sha)).toBe(false);
    await fetchCommit(target, scenario.repo, sha);
    expect(await hasObject(target, sha)).toBe(true);
    expect((await rawGit(target, 'rev-list', '--count', sha)).trim()).toBe('4');
    expect(await listRefNames(target, 'refs/')).toEqual([]);
    await fetchCommit(target, scenario.repo, sha); // already there: nothing to do
  });

  it('refuses what is not an object id or an absolute path', async () => {
    await expect(fetchCommit(target, scenario.repo, 'main')).rejects.toThrow(GitArgumentError);
    await expect(fetchCommit(target, '--upload-pack=touch /tmp/x', 'a'.repeat(40))).rejects.toThrow(GitArgumentError);
  });
});
