/** The parts of `window` that `whenIdle` uses (a fake in tests). */
export interface IdleScheduler {
  requestIdleCallback?: (callback: () => void, options: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
  setTimeout: (callback: () => void, ms: number) => number;
  clearTimeout: (id: number) => void;
}

/**
 * Runs `callback` in the browser's next idle period, or after `timeoutMs` at the latest, and
 * returns a function that cancels it. Where there is no requestIdleCallback (Safari), in the next
 * task.
 */
export function whenIdle(callback: () => void, timeoutMs: number, scheduler: IdleScheduler = window): () => void {
  if (scheduler.requestIdleCallback && scheduler.cancelIdleCallback) {
    const cancel = scheduler.cancelIdleCallback;
    const id = scheduler.requestIdleCallback(callback, { timeout: timeoutMs });
    return () => cancel(id);
  }
  const id = scheduler.setTimeout(callback, 0);
  return () => scheduler.clearTimeout(id);
}
