/**
 * One holder at a time per key, within this process: merges into the same target branch take
 * turns here, so they do not lose their compare-and-swap to each other and rebuild. Across
 * processes the compare-and-swap still decides (and the loser rebuilds); this only saves the
 * wasted work. A lock, not a queue of data: waiters run in arrival order.
 */
export type KeyedLock = <T>(key: string, fn: () => Promise<T>) => Promise<T>;

export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<void>>();
  return async (key, fn) => {
    const previous = tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
