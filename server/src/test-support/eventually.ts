/**
 * The one way a server test waits for something that happens in the background (a job, an event's
 * delivery, a repository removed): poll `probe` until it returns something truthy, and return it.
 * Fails after `ms` (20 s by default), naming `what` it was waiting for. Tests never wait a fixed time.
 */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, limit: number | { ms?: number; what?: string } = {}): Promise<T> {
  const { ms = 20_000, what = 'a condition' } = typeof limit === 'number' ? { ms: limit } : limit;
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
