/**
 * A short-lived, bounded cache of authenticated tokens (by digest), so most
 * token-authenticated requests need no database round trip for auth.
 * Revocation deletes the entry at once in this process and, through the
 * `token.revoked` domain event (LISTEN/NOTIFY), in every other; the TTL
 * bounds staleness if a notification were ever lost. Expiry dates are
 * checked on every hit.
 */
export const TOKEN_CACHE_TTL_MS = 10_000;
export const TOKEN_CACHE_MAX_ENTRIES = 10_000;

export interface TokenCache<V> {
  get(digest: string, now?: number): V | undefined;
  set(digest: string, value: V, now?: number): void;
  deleteWhere(predicate: (value: V) => boolean): void;
  clear(): void;
}

export function createTokenCache<V>(ttlMs = TOKEN_CACHE_TTL_MS, maxEntries = TOKEN_CACHE_MAX_ENTRIES): TokenCache<V> {
  const entries = new Map<string, { value: V; until: number }>();
  return {
    get(digest, now = Date.now()) {
      const entry = entries.get(digest);
      if (!entry) return undefined;
      if (entry.until <= now) {
        entries.delete(digest);
        return undefined;
      }
      return entry.value;
    },
    set(digest, value, now = Date.now()) {
      // Map keeps insertion order: dropping the first key evicts the oldest entry.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(digest, { value, until: now + ttlMs });
    },
    deleteWhere(predicate) {
      for (const [digest, entry] of entries) if (predicate(entry.value)) entries.delete(digest);
    },
    clear: () => entries.clear(),
  };
}
