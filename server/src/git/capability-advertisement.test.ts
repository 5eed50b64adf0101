import { describe, expect, it } from 'vitest';
import { createCapabilityAdvertisementCache, isProtocolV2 } from './capability-advertisement.js';

function fakeRepositories() {
  const stamps = new Map<string, string>([
    ['/repos/a.git', 's1'],
    ['/repos/b.git', 's1'],
  ]);
  const calls: string[] = [];
  const cache = createCapabilityAdvertisementCache({
    advertise: async (repo, protocol) => {
      calls.push(`${repo} ${protocol}`);
      return Buffer.from(`caps of ${repo} at ${stamps.get(repo)} for ${protocol}`);
    },
    configStamp: async (repo) => stamps.get(repo)!,
    maxEntries: 2,
  });
  return { cache, calls, stamps };
}

describe('isProtocolV2', () => {
  it.each([
    ['version=2', true],
    ['version=2:object-format=sha1', true],
    ['version=1', false],
    ['version=0', false],
    [undefined, false],
    ['version=20', false],
  ])('%s → %s', (header, expected) => {
    expect(isProtocolV2(header)).toBe(expected);
  });
});

describe('capability advertisement cache', () => {
  it('asks git once per repository and protocol while the config is unchanged', async () => {
    const { cache, calls } = fakeRepositories();
    const first = await cache.get('/repos/a.git', 'version=2');
    expect(await cache.get('/repos/a.git', 'version=2')).toEqual(first);
    await cache.get('/repos/a.git', 'version=2:object-format=sha1');
    await cache.get('/repos/b.git', 'version=2');
    expect(calls).toEqual(['/repos/a.git version=2', '/repos/a.git version=2:object-format=sha1', '/repos/b.git version=2']);
  });

  it('asks again after the repository config changed', async () => {
    const { cache, calls, stamps } = fakeRepositories();
    await cache.get('/repos/a.git', 'version=2');
    stamps.set('/repos/a.git', 's2');
    expect((await cache.get('/repos/a.git', 'version=2')).toString()).toBe('caps of /repos/a.git at s2 for version=2');
    expect(calls).toHaveLength(2);
  });

  it('does not keep an answer read while the config changed', async () => {
    let stampReads = 0;
    let calls = 0;
    const cache = createCapabilityAdvertisementCache({
      advertise: async () => Buffer.from(String(++calls)),
      configStamp: async () => (++stampReads === 1 ? 's1' : 's2'),
    });
    await cache.get('/repos/a.git', 'version=2'); // stamp s1 before, s2 after: not kept
    await cache.get('/repos/a.git', 'version=2'); // s2 and s2: kept
    await cache.get('/repos/a.git', 'version=2');
    expect(calls).toBe(2);
  });

  it('forgets the least recently used repository past its size', async () => {
    const { cache, calls, stamps } = fakeRepositories();
    stamps.set('/repos/c.git', 's1');
    await cache.get('/repos/a.git', 'version=2');
    await cache.get('/repos/b.git', 'version=2');
    await cache.get('/repos/a.git', 'version=2'); // a is now the most recent
    await cache.get('/repos/c.git', 'version=2'); // b goes
    await cache.get('/repos/a.git', 'version=2');
    await cache.get('/repos/b.git', 'version=2');
    expect(calls).toEqual(['/repos/a.git version=2', '/repos/b.git version=2', '/repos/c.git version=2', '/repos/b.git version=2']);
  });
});
