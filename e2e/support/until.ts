/**
 * Polls `read` until it returns something truthy, and returns it: how a browser test waits for
 * what the server does in the background (a pipeline created, a job pending). No deadline of its
 * own: the test's timeout ends a wait that never comes.
 */
export async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
