import type { WriteWatch } from './write-watch.js';

/**
 * A backstop, not the mechanism: writes move the watch's generation at once.
 * The age limit bounds what no write announces (a membership whose
 * `expires_at` date has just passed, a notification lost while the LISTEN
 * connection was reconnecting).
 */
export const CACHED_READ_MAX_AGE_MS = 10_000;
const MAX_ENTRIES = 10_000;

export interface CachedReadOptions<A extends unknown[], R> {
  /** the tables the read depends on: a write to any of them drops every answer */
  tables: readonly string[];
  /** the cache key of one call's arguments */
  key: (...args: A) => string;
  /** answers worth keeping (default: all) */
  keep?: (value: R) => boolean;
  /** what each caller gets, so a caller changing its copy leaves the cached one alone (default: the value itself) */
  copy?: (value: R) => R;
  /** answers kept at most (default MAX_ENTRIES); the oldest goes first */
  maxEntries?: number;
  now?: () => number;
}

interface Entry<R> {
  value: R;
  generation: number;
  storedAt: number;
}

/**
 * Remembers a database read per key until one of the tables it reads is
 * written (see `write-watch.ts`). A call that raced a write is answered but
 * not kept, so no answer older than the last write it depends on survives.
 */
export function cachedRead<A extends unknown[], R>(watch: Pick<WriteWatch, 'generation'>, read: (...args: A) => Promise<R>, options: CachedReadOptions<A, R>): (...args: A) => Promise<R> {
  const entries = new Map<string, Entry<R>>();
  const now = options.now ?? Date.now;
  const copy = options.copy ?? ((value: R) => value);
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  return async (...args: A) => {
    const key = options.key(...args);
    const generation = watch.generation(options.tables);
    const hit = entries.get(key);
    if (hit && hit.generation === generation && now() - hit.storedAt < CACHED_READ_MAX_AGE_MS) return copy(hit.value);

    const value = await read(...args);
    if ((options.keep?.(value) ?? true) && watch.generation(options.tables) === generation) {
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { value: copy(value), generation, storedAt: now() });
    }
    return value;
  };
}
