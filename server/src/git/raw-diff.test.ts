import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawDiff } from './raw-diff.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';

describe('rawDiff', () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await buildScenario('weird-file-names');
  });
  afterAll(() => scenario.cleanup());

  it('is the patch git prints, invalid UTF-8 in names kept byte for byte', async () => {
    const [from, to] = (await rawGit(scenario.repo, 'rev-parse', 'main~1', 'main')).trim().split('\n');
    const patch = await rawDiff(scenario.repo, from!, to!);
    expect(patch.includes(Buffer.from('diff --git a/caf\xe9.txt b/caf\xe9.txt', 'latin1'))).toBe(true);
    expect(patch.toString('utf8')).toContain('diff --git a/with space.txt b/with space.txt\nindex ');
    expect(patch.toString('utf8')).toContain('-v1\n+v2\n');
  });

  it('diffs a root commit against the empty tree', async () => {
    const root = (await rawGit(scenario.repo, 'rev-parse', 'main~1')).trim();
    expect((await rawDiff(scenario.repo, null, root)).toString('utf8')).toContain('new file mode 100644');
  });
});
