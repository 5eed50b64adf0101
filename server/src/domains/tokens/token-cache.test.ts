import { describe, expect, it } from 'vitest';
import { createTokenCache } from './token-cache.js';

describe('token cache', () => {
  it('returns an entry until its TTL passes', () => {
    const cache = createTokenCache<string>(1_000);
    cache.set('d', 'v', 0);
    expect(cache.get('d', 999)).toBe('v');
    expect(cache.get('d', 1_000)).toBeUndefined();
  });

  it('evicts the oldest entry when full', () => {
    const cache = createTokenCache<string>(1_000, 2);
    cache.set('a', '1', 0);
    cache.set('b', '2', 0);
    cache.set('c', '3', 0);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBe('3');
  });

  it('deletes entries matching a predicate (revocation)', () => {
    const cache = createTokenCache<{ id: number }>();
    cache.set('a', { id: 1 });
    cache.set('b', { id: 2 });
    cache.deleteWhere((value) => value.id === 1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toEqual({ id: 2 });
  });
});
