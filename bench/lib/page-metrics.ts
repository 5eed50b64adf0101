/**
 * What the browser benchmark measures inside the page: Chromium's long tasks
 * (PerformanceObserver 'longtask', every main-thread task over 50 ms) and the
 * moment a piece of text first appears in an element, checked once per frame.
 * Installed with `page.addInitScript`, so it runs before the app's own scripts.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';

/**
 * How long a new page is left alone before it is measured. Headless Chromium opens every page
 * in a window of its own and, right after, builds that window's omnibox popup (a
 * chrome://omnibox-popup.top-chrome renderer, 0.5–1.2 s of CPU; seen in Chromium's trace and in
 * bench/README). A reader opening a merge request in a tab has no such work, and on two cores it
 * would take turns with the page being measured.
 */
const NEW_WINDOW_SETTLE_MS = 2000;

/** The user-timing mark the page metrics set in the frame that first shows the watched text. */
export const TEXT_SEEN_MARK = 'bench:text-seen';

/** A new page of `context`, once the browser is done setting up its window (NEW_WINDOW_SETTLE_MS). */
export async function openSettledPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.waitForTimeout(NEW_WINDOW_SETTLE_MS);
  return page;
}

export interface LongTask {
  /** ms since the navigation started (performance.now()) */
  start: number;
  duration: number;
}

interface PageMetrics {
  longTasks: LongTask[];
  /** performance.now() of the first frame in which the watched text was in the watched element */
  textSeenAt: number | null;
}

/**
 * Records long tasks from the first script on, and the first animation frame in which
 * `selector` holds `text` (a frame callback runs just before that frame is painted), also as
 * the user-timing mark TEXT_SEEN_MARK, which Chromium's trace shows on its own clock.
 */
export async function installPageMetrics(page: Page, watch: { selector: string; text: string }): Promise<void> {
  // A string, not a function: tsx's transform adds helpers (`__name`) to functions, which the page does not have.
  await page.addInitScript(`(() => {
    const watched = ${JSON.stringify(watch)};
    const metrics = { longTasks: [], textSeenAt: null };
    window.__benchMetrics = metrics;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) metrics.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
    const check = () => {
      const element = document.querySelector(watched.selector);
      if (element && element.textContent.includes(watched.text)) {
        metrics.textSeenAt = performance.now();
        performance.mark(${JSON.stringify(TEXT_SEEN_MARK)});
        return;
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })();`);
}

/** True once the watched text has been seen. */
export const TEXT_SEEN = 'window.__benchMetrics && window.__benchMetrics.textSeenAt !== null';

export async function readPageMetrics(page: Page): Promise<PageMetrics> {
  const metrics = (await page.evaluate('window.__benchMetrics')) as PageMetrics | undefined;
  if (!metrics) throw new Error('the page metrics script did not run');
  return metrics;
}

/**
 * Waits until `expression` is truthy in the page, checking every 100 ms. Evaluated over the
 * DevTools protocol, as the page's Content-Security-Policy (no eval) requires: Playwright's
 * `waitForFunction` with a string evaluates it inside the page, which the policy blocks.
 */
export async function waitForExpression(page: Page, expression: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A visit's long tasks split at the moment `ms` (the first frame showing what the page is
 * for): those that ended before it, and those still running at it or started after it.
 */
export function splitTasksAt(tasks: readonly LongTask[], ms: number): { before: LongTask[]; after: LongTask[] } {
  return {
    before: tasks.filter((task) => task.start + task.duration < ms),
    after: tasks.filter((task) => task.start + task.duration >= ms),
  };
}

export const longest = (tasks: readonly LongTask[]): number => tasks.reduce((max, task) => Math.max(max, task.duration), 0);

/**
 * Scrolls the window from the top to the bottom, `viewports` window heights per step,
 * waiting two animation frames after each step (so each step's rows are rendered and
 * painted before the next). Returns when the bottom is reached, with the steps taken and
 * the time it took (ms, performance.now() in the page).
 */
export async function scrollToBottom(page: Page, viewports: number, maxSteps: number): Promise<{ steps: number; ms: number; startedAt: number; reachedBottom: boolean }> {
  return page.evaluate(`(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    window.scrollTo(0, 0);
    await frame();
    await frame();
    const startedAt = performance.now();
    const step = Math.round(window.innerHeight * ${Number(viewports)});
    let steps = 0;
    const atBottom = () => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    while (!atBottom() && steps < ${Number(maxSteps)}) {
      window.scrollBy(0, step);
      steps++;
      await frame();
      await frame();
    }
    return { steps, ms: performance.now() - startedAt, startedAt, reachedBottom: atBottom() };
  })()`);
}

/** A main-thread task of the page's renderer, from Chromium's trace: wall time and the CPU time it used. */
export interface TracedTask {
  /** µs, trace clock */
  ts: number;
  wall: number;
  cpu: number;
}

/**
 * Chromium's trace of `page` while `run` runs: every top-level task on the renderer's main
 * thread with its wall time (`dur`) and its thread CPU time (`tdur`). On a busy machine a
 * task's wall time includes the time the thread waited for a core; its CPU time is the work
 * itself, what the task would take on an idle machine. `textSeenTs`: when the page metrics'
 * TEXT_SEEN_MARK was set, on the trace clock (null when it was not set while tracing).
 */
export async function traceMainThreadTasks<T>(browser: Browser, page: Page, run: () => Promise<T>): Promise<{ value: T; tasks: TracedTask[]; textSeenTs: number | null }> {
  await browser.startTracing(page, { categories: ['toplevel', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
  let value: T;
  try {
    value = await run();
  } catch (error) {
    await browser.stopTracing().catch(() => undefined);
    throw error;
  }
  const buffer = await browser.stopTracing();
  const parsed = JSON.parse(buffer.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const mains = new Set(events.filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`));
  const tasks = events
    .filter((event) => event.ph === 'X' && event.name === 'RunTask' && mains.has(`${event.pid}:${event.tid}`))
    .map((event) => ({ ts: event.ts, wall: (event.dur ?? 0) / 1000, cpu: (event.tdur ?? event.dur ?? 0) / 1000 }));
  const textSeen = events.find((event) => event.name === TEXT_SEEN_MARK && mains.has(`${event.pid}:${event.tid}`));
  return { value, tasks, textSeenTs: textSeen ? textSeen.ts : null };
}

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}
