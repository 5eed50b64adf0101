import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRefNames, readRef } from '../../git/index.js';
import { buildScenario, rawGit, type Scenario } from '../../git/scenarios/scenarios.js';
import { keepAround, pointHeadRef, updateVersionRefs } from './merge-request-refs.js';

describe('merge request refs on linear-history', () => {
  let scenario: Scenario;
  let shas: string[];
  const target = async (ref: string) => (await readRef(scenario.repo, ref))?.target ?? null;

  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    shas = (await rawGit(scenario.repo, 'rev-list', 'main')).trim().split('\n'); // c6 … c1
  });
  afterAll(() => scenario.cleanup());

  it('records a first version: head ref and keep-around refs for head and start, in one transaction', async () => {
    await updateVersionRefs(scenario.repo, { iid: 1, head: shas[0]!, start: shas[3]!, previous: null });
    expect(await target('refs/merge-requests/1/head')).toBe(shas[0]);
    expect(await listRefNames(scenario.repo, 'refs/keep-around/')).toEqual([`refs/keep-around/${shas[3]}`, `refs/keep-around/${shas[0]}`].sort());
  });

  it('moves the head ref from the previous version and keeps only the new commits', async () => {
    await updateVersionRefs(scenario.repo, { iid: 1, head: shas[1]!, start: shas[3]!, previous: { head: shas[0]!, start: shas[3]! } });
    expect(await target('refs/merge-requests/1/head')).toBe(shas[1]);
    expect(await target(`refs/keep-around/${shas[1]}`)).toBe(shas[1]);
  });

  it('falls back to reading refs when an expectation is wrong (a force push back to a kept head)', async () => {
    // previous is stale (the ref is at shas[1]) and shas[0] already has a keep-around ref.
    await updateVersionRefs(scenario.repo, { iid: 1, head: shas[0]!, start: shas[3]!, previous: { head: shas[5]!, start: shas[4]! } });
    expect(await target('refs/merge-requests/1/head')).toBe(shas[0]);
    expect(await target(`refs/keep-around/${shas[4]}`)).toBeNull();
  });

  it('creates keep-around refs idempotently and points head refs by compare-and-swap', async () => {
    await keepAround(scenario.repo, [shas[2]!, shas[2]!, shas[0]!]);
    await keepAround(scenario.repo, [shas[2]!]);
    expect(await target(`refs/keep-around/${shas[2]}`)).toBe(shas[2]);
    await pointHeadRef(scenario.repo, 7, shas[2]!);
    await pointHeadRef(scenario.repo, 7, shas[2]!);
    await pointHeadRef(scenario.repo, 7, shas[1]!);
    expect(await target('refs/merge-requests/7/head')).toBe(shas[1]);
  });
});
