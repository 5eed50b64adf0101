import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signIn } from '../../e2e/support/browser.js';
import { type Cleanup } from '../lib/cleanup.js';
import { git, gitEnv } from '../lib/git-repo.js';
import { CHANGED_LINES_PER_FILE, createMergeRequest, filePath, generateMergeRequestRepository, MR_REFS, timedDiffsPage, waitForVersion, type MergeRequestRepoLayout } from '../lib/merge-requests.js';
import { installPageMetrics, longest, openSettledPage, readPageMetrics, scrollToBottom, TEXT_SEEN, waitForExpression, traceMainThreadTasks, type LongTask, type TracedTask } from '../lib/page-metrics.js';
import { benchDatabase } from '../lib/postgres.js';
import { formatMs, formatRatio, formatSamples, median } from '../lib/stats.js';
import { type Row } from '../lib/table.js';
import { createProject, createRootToken, startTributary } from '../lib/tributary.js';
import { ROOT_PASSWORD, RUNS, verdict, type BenchResult } from './common.js';

/** The merge request of the merge-requests benchmark: 1,000 files, 50 lines rewritten in each. */
const LAYOUT: MergeRequestRepoLayout = { files: 1000, pushFiles: 10, largePushes: 0, topicPushes: 0 };
/** The first page the tab asks for (web/src/features/merge-requests/diff-pages.ts: 25, 25, 50, then 100 files a page). */
const WEB_PER_PAGE = 25;
const API_RUNS = 5;
/** The Changes tab's targets. */
const FIRST_FILE_TARGET_MS = 1000;
const LONG_TASK_TARGET_MS = 200;
/** Window heights per scroll step: every file (≈ 3.5 heights tall) is on screen in at least one step. */
const SCROLL_VIEWPORTS = 3;
const MAX_SCROLL_STEPS = 5000;
/** Quiet time after the last file arrived, for idle work (highlighting) to run before scrolling. */
const SETTLE_MS = 1500;

interface TabRun {
  firstFileMs: number;
  allFilesMs: number;
  loadTasks: LongTask[];
  scrollTasks: LongTask[];
  /** The same phases' main-thread tasks from Chromium's trace, with their CPU time (empty unless the visit was traced). */
  loadTrace: TracedTask[];
  scrollTrace: TracedTask[];
  scroll: { steps: number; ms: number; reachedBottom: boolean };
}

/** The first changed line of file 0 and the heading of the last file: what "shown" and "scrolled through" look for. */
const FIRST_LINE = "compute(0, 5, 'feature')";
const LAST_FILE = filePath(LAYOUT.files - 1);
const CHANGES_REGION = '[role="region"][aria-label="Changes"]';
const ALL_FILES_SHOWN = `[...document.querySelectorAll('[role="status"]')].every((status) => !status.textContent.includes('Loading files'))
  && [...document.querySelectorAll('strong')].some((strong) => strong.textContent === '${LAYOUT.files} files')`;

/** `run`'s value, and Chromium's trace of the page's main thread while it ran when `traced` (tracing slows the page). */
async function phase<T>(browser: Browser, page: Page, traced: boolean, run: () => Promise<T>): Promise<{ value: T; tasks: TracedTask[] }> {
  return traced ? traceMainThreadTasks(browser, page, run) : { value: await run(), tasks: [] };
}

async function openChangesTab(browser: Browser, page: Page, url: string, traced: boolean): Promise<TabRun> {
  await installPageMetrics(page, { selector: CHANGES_REGION, text: FIRST_LINE });
  const load = await phase(browser, page, traced, async () => {
    await page.goto(url);
    await waitForExpression(page, TEXT_SEEN, 60_000);
    // Every page of files has been rendered when the "Loading files" status is gone. Checked with a
    // query every 100 ms: Playwright's text locators search the whole page, and would be long tasks themselves.
    await waitForExpression(page, ALL_FILES_SHOWN, 120_000);
    const allFilesMs = (await page.evaluate('performance.now()')) as number;
    await page.waitForTimeout(SETTLE_MS);
    return allFilesMs;
  });
  const loaded = await readPageMetrics(page);
  const scrolled = await phase(browser, page, traced, () => scrollToBottom(page, SCROLL_VIEWPORTS, MAX_SCROLL_STEPS));
  const scroll = scrolled.value;
  await page.locator(CHANGES_REGION).getByRole('heading', { name: LAST_FILE, exact: true }).waitFor({ timeout: 10_000 });
  const after = await readPageMetrics(page);
  return {
    firstFileMs: loaded.textSeenAt!,
    allFilesMs: load.value,
    loadTasks: loaded.longTasks,
    scrollTasks: after.longTasks.filter((task) => task.start >= scroll.startedAt),
    loadTrace: load.tasks,
    scrollTrace: scrolled.tasks,
    scroll,
  };
}

/** The same app and merge request without a diff: the Commits tab, for the app's own start-up cost. */
async function openCommitsTab(page: Page, url: string): Promise<LongTask[]> {
  await installPageMetrics(page, { selector: 'main', text: 'Rewrite' });
  await page.goto(url);
  await waitForExpression(page, TEXT_SEEN, 60_000);
  await page.waitForTimeout(SETTLE_MS);
  return (await readPageMetrics(page)).longTasks;
}

/** "none", or how many long tasks and the longest few. */
function taskList(tasks: readonly LongTask[]): string {
  if (tasks.length === 0) return 'none';
  const worst = [...tasks].sort((a, b) => b.duration - a.duration).slice(0, 5);
  return `${tasks.length} (longest ${worst.map((task) => formatMs(task.duration)).join(', ')})`;
}

const longestCpu = (tasks: readonly TracedTask[]) => tasks.reduce((max, task) => Math.max(max, task.cpu), 0);

/** The traced tasks over the target, as wall/CPU, or "none". */
function overTarget(tasks: readonly TracedTask[]): string {
  const over = tasks.filter((task) => task.wall > LONG_TASK_TARGET_MS);
  return over.length === 0 ? 'none' : over.map((task) => `${formatMs(task.wall)}/${formatMs(task.cpu)} CPU`).join(', ');
}

/**
 * The browser target: the Changes tab of the 1,000-file merge request in Chromium
 * (playwright-core, headless, 1280×800), signed in as root. Time from navigation to the
 * first file's first changed line being in the page, then — once every page of files has
 * arrived — a scroll from top to bottom, three window heights a step, two frames each;
 * long tasks (over 50 ms) recorded throughout. Baselines: `GET …/diffs?per_page=100`
 * (the first request the tab waits for) from Node, and the longest task of the same
 * merge request's Commits tab (the app's own start-up).
 */
export async function benchChangesTabBrowser(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-tab-');
  const home = join(dir, 'home');
  mkdirSync(home);
  const plainEnv = gitEnv(home);
  const source = join(dir, 'source.git');
  const refs = await generateMergeRequestRepository(source, LAYOUT, plainEnv);
  const featureSha = refs.get(MR_REFS.feature);
  if (!featureSha) throw new Error('the generated repository has no feature branch');

  const database = await benchDatabase(cleanup);
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  const server = await startTributary(cleanup, { name: 'tributary (Changes tab)', dataDir, databaseUrl: database.url, rootPassword: ROOT_PASSWORD });
  const token = await createRootToken(server);
  const project = await createProject(server, token, 'bench-tab');
  const authEnv = gitEnv(home, { token });
  const httpUrl = `${server.url}/${project.path_with_namespace}.git`;
  await git(['--git-dir', source, 'push', '--quiet', httpUrl, `${MR_REFS.main}:${MR_REFS.main}`], { env: authEnv });
  await git(['--git-dir', source, 'push', '--quiet', httpUrl, `${MR_REFS.feature}:${MR_REFS.feature}`], { env: authEnv });
  const mr = await createMergeRequest(server, token, project.id, 'feature', 'main', 'Bench: the Changes tab');
  await waitForVersion(mr, featureSha, performance.now());

  await timedDiffsPage(mr, WEB_PER_PAGE); // warm-up
  const apiPage: number[] = [];
  for (let i = 0; i < API_RUNS; i++) apiPage.push((await timedDiffsPage(mr, WEB_PER_PAGE)).ms);

  const browser = await launchBrowser();
  cleanup.defer('close Chromium', () => browser.close());
  const context = await browser.newContext({ baseURL: server.url });
  const signInPage = await context.newPage();
  await signIn(signInPage, { username: 'root', password: ROOT_PASSWORD });
  await signInPage.close();

  const mrUrl = `/${project.path_with_namespace}/-/merge_requests/${mr.iid}`;
  const runs: TabRun[] = [];
  const commitsTasks: LongTask[][] = [];
  // One untimed run first (it fills the browser's cache with the app's scripts, as for a returning reader).
  for (let i = 0; i <= RUNS; i++) {
    const page = await openSettledPage(context);
    const run = await openChangesTab(browser.browser, page, `${mrUrl}/diffs`, false);
    await page.close();
    const commitsPage = await openSettledPage(context);
    const commits = await openCommitsTab(commitsPage, `${mrUrl}/commits`);
    await commitsPage.close();
    if (i === 0) continue;
    runs.push(run);
    commitsTasks.push(commits);
  }
  // One more visit under Chromium's trace, for the CPU time of its tasks.
  const tracedPage = await openSettledPage(context);
  const traced = await openChangesTab(browser.browser, tracedPage, `${mrUrl}/diffs`, true);
  await tracedPage.close();
  await browser.close();
  await server.child.stop();

  const firstFile = median(runs.map((run) => run.firstFileMs));
  const apiMedian = median(apiPage);
  const loadLongest = Math.max(...runs.map((run) => longest(run.loadTasks)));
  const scrollLongest = Math.max(...runs.map((run) => longest(run.scrollTasks)));
  const loadCpu = longestCpu(traced.loadTrace);
  const scrollCpu = longestCpu(traced.scrollTrace);
  const appLongest = Math.max(...commitsTasks.map(longest));
  const files = LAYOUT.files.toLocaleString('en-US');
  const lines = (LAYOUT.files * CHANGED_LINES_PER_FILE).toLocaleString('en-US');
  const what = `Changes tab in Chromium, MR of ${files} files / ${lines} changed lines`;
  const appBaseline = `${formatMs(appLongest)} longest task of the MR's Commits tab`;
  const rows: Row[] = [
    {
      benchmark: `${what}: first file shown (median of ${RUNS})`,
      tributary: formatMs(firstFile),
      baseline: `${formatMs(apiMedian)} GET …/diffs page 1, per_page=${WEB_PER_PAGE}, from Node`,
      ratio: formatRatio(firstFile / apiMedian),
      target: `< ${formatMs(FIRST_FILE_TARGET_MS)}`,
      verdict: verdict(firstFile < FIRST_FILE_TARGET_MS),
    },
    {
      benchmark: `${what}: all files listed (median of ${RUNS})`,
      tributary: formatMs(median(runs.map((run) => run.allFilesMs))),
      baseline: `${formatMs(apiMedian)} GET …/diffs page 1, per_page=${WEB_PER_PAGE}, from Node`,
      ratio: formatRatio(median(runs.map((run) => run.allFilesMs)) / apiMedian),
      target: '(information)',
      verdict: 'info',
    },
    {
      benchmark: `${what}: longest task while the files load: CPU time (Chromium's trace, one more visit) / wall time (worst of ${RUNS})`,
      tributary: `${formatMs(loadCpu)} CPU / ${formatMs(loadLongest)} wall`,
      baseline: appBaseline,
      ratio: appLongest > 0 ? formatRatio(loadCpu / appLongest) : '—',
      target: `≤ ${LONG_TASK_TARGET_MS} ms CPU`,
      verdict: verdict(loadCpu <= LONG_TASK_TARGET_MS),
    },
    {
      benchmark: `${what}: longest task scrolling through all files: CPU time (Chromium's trace, one more visit) / wall time (worst of ${RUNS})`,
      tributary: `${formatMs(scrollCpu)} CPU / ${scrollLongest === 0 ? 'none over 50 ms' : formatMs(scrollLongest)} wall`,
      baseline: appBaseline,
      ratio: appLongest > 0 ? formatRatio(scrollCpu / appLongest) : '—',
      target: `≤ ${LONG_TASK_TARGET_MS} ms CPU`,
      verdict: verdict(scrollCpu <= LONG_TASK_TARGET_MS && runs.every((run) => run.scroll.reachedBottom) && traced.scroll.reachedBottom),
    },
  ];
  const notes = [
    `Changes tab: Chromium (playwright-core, headless, 1280×800), signed in as root, one untimed visit first; Tributary on ${database.description}. ` +
      `First file shown (ms from navigation to the first frame holding the first file's first changed line): ${formatSamples(runs.map((run) => run.firstFileMs))}; ` +
      `all ${files} files listed after ${formatSamples(runs.map((run) => run.allFilesMs))}. ` +
      `\`GET …/diffs?per_page=${WEB_PER_PAGE}\` from Node: ${formatSamples(apiPage)}. ` +
      `Long tasks (PerformanceObserver 'longtask', over 50 ms wall) from navigation until ${SETTLE_MS / 1000} s after the last file arrived: ${runs.map((run) => taskList(run.loadTasks)).join(' | ')}. ` +
      `Scrolling top to bottom, ${SCROLL_VIEWPORTS} window heights a step, two frames each: ` +
      `${runs.map((run) => `${run.scroll.steps} steps in ${formatMs(run.scroll.ms)}, long tasks ${taskList(run.scrollTasks)}`).join(' | ')}. ` +
      `Commits tab of the same merge request: ${commitsTasks.map(taskList).join(' | ')}. ` +
      `One more visit under Chromium's trace (tracing slows the page, so it is not among the timed ones): first file after ${formatMs(traced.firstFileMs)}; ` +
      `its main-thread tasks over ${LONG_TASK_TARGET_MS} ms wall, as wall/CPU time — loading: ${overTarget(traced.loadTrace)}; scrolling: ${overTarget(traced.scrollTrace)}. ` +
      `A task's CPU time is its work; wall time above it is time the thread waited for a core.`,
  ];
  return { rows, notes };
}
