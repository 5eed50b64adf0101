import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitArgumentError } from './errors.js';
import { parsePackedRefs, readRefTips, readRefTipsWithGit } from './ref-files.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';

describe('parsePackedRefs', () => {
  it('reads the wanted lines, skipping the header and peeled lines', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    const text = `# pack-refs with: peeled fully-peeled sorted \n${a} refs/heads/main\n${b} refs/tags/v1\n^${a}\n${b} refs/heads/main-2\n`;
    expect(parsePackedRefs(text, new Set(['refs/heads/main', 'refs/tags/v1', 'refs/heads/gone']))).toEqual(new Map([['refs/heads/main', a], ['refs/tags/v1', b]]));
  });
});

describe('readRefTips on linear-history: the same answers as git for-each-ref, without a git process', () => {
  let scenario: Scenario;
  let repo: string;
  const sha = async (rev: string) => (await rawGit(repo, 'rev-parse', rev)).trim();
  const both = async (refs: string[]) => {
    const [files, withGit] = await Promise.all([readRefTips(repo, refs), readRefTipsWithGit(repo, refs)]);
    expect(files).toEqual(withGit);
    return files;
  };

  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    repo = scenario.repo;
  });
  afterAll(() => scenario.cleanup());

  it('reads loose refs, packed refs, and a loose ref over its stale packed line', async () => {
    const main = await sha('main');
    await rawGit(repo, 'update-ref', 'refs/heads/loose', main);
    expect(await both(['refs/heads/main', 'refs/heads/loose'])).toEqual(new Map([['refs/heads/main', main], ['refs/heads/loose', main]]));
    await rawGit(repo, 'pack-refs', '--all');
    expect(await both(['refs/heads/main', 'refs/heads/loose', 'refs/tags/v1.0'])).toEqual(new Map([['refs/heads/main', main], ['refs/heads/loose', main], ['refs/tags/v1.0', await sha('refs/tags/v1.0')]]));
    // moved after packing: a loose file again, which wins over the packed line
    await rawGit(repo, 'update-ref', 'refs/heads/loose', await sha('main~1'));
    expect((await both(['refs/heads/loose'])).get('refs/heads/loose')).toBe(await sha('main~1'));
    // deleted: gone from both
    await rawGit(repo, 'update-ref', '-d', 'refs/heads/loose');
    expect(await both(['refs/heads/loose'])).toEqual(new Map());
  });

  it('leaves out refs that do not exist, prefixes of refs and refs below a ref', async () => {
    expect(await both(['refs/heads/nope', 'refs/heads/feature', 'refs/heads/main/below'])).toEqual(new Map());
  });

  it('lets git answer a symbolic ref', async () => {
    await rawGit(repo, 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
    expect((await both(['refs/heads/alias'])).get('refs/heads/alias')).toBe(await sha('main'));
  });

  it('refuses names that are not full ref names, so no path leaves the refs', async () => {
    for (const bad of ['refs/heads/../../config', 'HEAD', '../config', 'refs/heads/.hidden', 'refs//heads']) {
      await expect(readRefTips(repo, [bad])).rejects.toBeInstanceOf(GitArgumentError);
    }
  });
});
