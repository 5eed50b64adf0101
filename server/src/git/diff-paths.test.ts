import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffTrees } from './diff.js';
import { diffTreesForPaths } from './diff-paths.js';
import { buildScenario, type Scenario } from './scenarios/scenarios.js';

describe('diffTreesForPaths on renamed-binary', () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await buildScenario('renamed-binary');
  });
  afterAll(() => scenario.cleanup());

  it('returns only the asked paths, equal to the same files of the full diff', async () => {
    const full = await diffTrees(scenario.repo, 'main~1', 'main');
    const page = await diffTreesForPaths(scenario.repo, 'main~1', 'main', ['old.txt', 'new.txt', 'link-me', 'image.png']);
    expect(page.diffs.map((d) => `${d.old_path}→${d.new_path}`)).toEqual(['image.png→image.png', 'link-me→link-me', 'link-me→link-me', 'old.txt→new.txt']);
    for (const file of page.diffs) {
      expect(full.diffs.find((d) => d.old_path === file.old_path && d.new_path === file.new_path && d.new_file === file.new_file)).toEqual(file);
    }
  });

  it('answers an empty page without running git', async () => {
    expect(await diffTreesForPaths(scenario.repo, 'main~1', 'main', [])).toEqual({ diffs: [], overflow: false });
  });
});
