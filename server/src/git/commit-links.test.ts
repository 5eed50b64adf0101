import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommitLinks, readCommitLinks } from './commit-links.js';
import { createObjectReader } from './object-reader.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';

const T = 'a'.repeat(40);
const P1 = 'b'.repeat(40);
const P2 = 'c'.repeat(40);
const SIGNATURE = 'author A <a@example.com> 1 +0000\ncommitter A <a@example.com> 1 +0000';

describe('parseCommitLinks', () => {
  it.each([
    ['a root commit', `tree ${T}\n${SIGNATURE}\n\nmsg\n`, { tree: T, parents: [] }],
    ['a merge, parents in order', `tree ${T}\nparent ${P1}\nparent ${P2}\n${SIGNATURE}\n\nmsg\n`, { tree: T, parents: [P1, P2] }],
    ['a message that looks like headers', `tree ${T}\n${SIGNATURE}\n\nparent ${P1}\n`, { tree: T, parents: [] }],
    ['no tree header', `parent ${P1}\n${SIGNATURE}\n\nmsg\n`, null],
    ['a tree that is not an id', `tree xyz\n${SIGNATURE}\n\nmsg\n`, null],
    ['a parent that is not an id', `tree ${T}\nparent ${P1.slice(1)}\n\nmsg\n`, null],
    ['a blob', 'hello\n', null],
  ])('%s', (_name, text, expected) => {
    expect(parseCommitLinks(Buffer.from(text, 'latin1'))).toEqual(expected);
  });
});

describe('readCommitLinks', () => {
  let scenario: Scenario;
  const reader = createObjectReader();
  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
  });
  afterAll(async () => {
    reader.closeAll();
    await scenario.cleanup();
  });

  it("reads a commit's tree and parents as git does", async () => {
    const [sha, parent] = (await rawGit(scenario.repo, 'rev-parse', 'main', 'main~1')).trim().split('\n');
    const tree = (await rawGit(scenario.repo, 'rev-parse', 'main^{tree}')).trim();
    expect(await readCommitLinks(scenario.repo, sha!, reader)).toEqual({ tree, parents: [parent] });
  });

  it('answers null for a tree, a tag and a missing object', async () => {
    const [tree, tag] = (await rawGit(scenario.repo, 'rev-parse', 'main^{tree}', 'v1.0')).trim().split('\n');
    expect(await readCommitLinks(scenario.repo, tree!, reader)).toBeNull();
    expect(await readCommitLinks(scenario.repo, tag!, reader)).toBeNull();
    expect(await readCommitLinks(scenario.repo, 'f'.repeat(40), reader)).toBeNull();
  });
});
