import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../platform/events.js';
import { buildScenario, rawGit, type Scenario } from '../../../git/scenarios/scenarios.js';
import { createGitFacts } from './git-facts.js';

/** The widget's git cache on a real repository: tips follow push events, commit lists are keyed by SHAs. */
describe('git facts', () => {
  let scenario: Scenario;
  let clock = 0;
  const handlers = new Map<string, (event: DomainEvent) => void>();
  const events = { subscribe: (type: string, handler: (event: DomainEvent) => void) => (handlers.set(type, handler), () => undefined) };
  const sha = async (rev: string) => (await rawGit(scenario.repo, 'rev-parse', rev)).trim();
  const pushed = (projectId: number) => handlers.get('repository.pushed')!({ id: 1, type: 'repository.pushed', payload: { projectId, userId: null, pushEventIds: [], refs: [] } });

  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
  });
  afterAll(() => scenario.cleanup());

  const facts = () => createGitFacts({ storage: { pathFor: () => scenario.repo }, events: events as never, now: () => clock, ttlMs: 10_000 });

  it('reads several branch tips of a project in one git call, and null for a missing branch', async () => {
    const cache = facts();
    const [main, missing] = await Promise.all([cache.branchTip(1, 'main'), cache.branchTip(1, 'no-such-branch')]);
    expect(main).toBe(await sha('main'));
    expect(missing).toBeNull();
  });

  it('keeps a tip until a push event for the project or the TTL, whichever comes first', async () => {
    const cache = facts();
    const main = await sha('main');
    const parent = await sha('main~1');
    expect(await cache.branchTip(1, 'main')).toBe(main);
    await rawGit(scenario.repo, 'update-ref', 'refs/heads/main', parent, main);
    try {
      expect(await cache.branchTip(1, 'main')).toBe(main); // moved without an event: still cached
      pushed(2);
      expect(await cache.branchTip(1, 'main')).toBe(main); // another project's push changes nothing
      pushed(1);
      expect(await cache.branchTip(1, 'main')).toBe(parent);
      await rawGit(scenario.repo, 'update-ref', 'refs/heads/main', main, parent);
      clock += 10_000;
      expect(await cache.branchTip(1, 'main')).toBe(main); // the TTL bounds what no event announced
    } finally {
      await rawGit(scenario.repo, 'update-ref', 'refs/heads/main', main);
    }
  });

  it('lists the commits between two SHAs, newest first', async () => {
    const cache = facts();
    const [from, to] = [await sha('main~3'), await sha('main')];
    const commits = await cache.commitsWithoutMerges(1, from, to);
    expect(commits.map((commit) => commit.id)).toEqual([to, await sha('main~1'), await sha('main~2')]);
  });
});
