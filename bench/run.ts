/**
 * `npm run bench`: Tributary's performance targets, each measured beside a
 * baseline taken in the same run (bare Fastify, raw git, raw SQL), reported as a
 * ratio because the machines we run on are shared and noisy.
 *
 *   npm run bench                       build, then every benchmark (about 20 minutes on 2 cores)
 *   node --import tsx bench/run.ts --only=api,git   a subset: cold-start,  git, merge-requests
 *
 * Tunables (environment): BENCH_LOAD_SECONDS (10), BENCH_CONNECTIONS (50),
 * BENCH_COMMITS (10000), BENCH_RUNS (3), BENCH_STRICT=1 (exit 1 when a target
 * is missed), DATABASE_URL (a PostgreSQL server to use instead of a throwaway
 * cluster; its user must be allowed to create databases), BENCH_SERVER (measure
 * another build's server folder). See bench/README.md.
 *
 * The table is printed and written to bench/results.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { createCleanup, runPendingCleanupsSync, type Cleanup } from './lib/cleanup.js';
import { childEnv, runCommand } from './lib/process.js';
import { renderMarkdown, renderText, type Row } from './lib/table.js';
import { ensureBuilt } from './lib/tributary.js';
import { RESULTS_FILE, type Benchmark } from './benchmarks/common.js';
import { benchColdStart } from './benchmarks/cold-start.js';
import { benchProjectApi } from './benchmarks/project-api.js';
import { benchGitClone } from './benchmarks/git-clone.js';
import { benchMergeRequests } from './benchmarks/merge-requests.js';
import { benchMergeability } from './benchmarks/mergeability.js';
import { benchGraphqlWidget } from './benchmarks/graphql-widget.js';
import { benchFirstStartMemory } from './benchmarks/first-start-memory.js';
import { benchMergeRequestApi } from './benchmarks/merge-request-api.js';
import { benchMerge } from './benchmarks/merge.js';
import { benchChangesTabBrowser } from './benchmarks/changes-tab-browser.js';
import { benchDiscussions } from './benchmarks/discussions.js';
import { benchTestReports } from './benchmarks/test-reports.js';
import { benchMergeRequestPage } from './benchmarks/merge-request-page.js';
import { benchPipelines } from './benchmarks/pipelines.js';
import { benchApprovalState } from './benchmarks/approval-state.js';
import { benchMergeTrain } from './benchmarks/merge-train.js';

/**
 * The whole bench stops (and cleans up) after this, whatever is running. Every benchmark together
 * takes about 20 minutes on a quiet 2-core machine and two to three times that on a busy one.
 */
const WATCHDOG_MS = 60 * 60_000;

/* ------------------------------------------------------------------ runner */

const BENCHMARKS: Benchmark[] = [
  { id: 'cold-start', title: 'Cold start', run: benchColdStart },
  { id: 'api', title: 'Project API under load', run: benchProjectApi },
  { id: 'git', title: 'git clone', run: benchGitClone },
  { id: 'merge-requests', title: 'Merge requests', run: benchMergeRequests },
  { id: 'mergeability', title: 'Mergeability in a 50,000-commit repository', run: benchMergeability },
  { id: 'graphql-widget', title: 'GraphQL widget query and live updates', run: benchGraphqlWidget },
  { id: 'merge-request-api', title: 'Merge request REST API under load', run: benchMergeRequestApi },
  { id: 'first-start-memory', title: 'Memory after the first start', run: benchFirstStartMemory },
  { id: 'merge', title: 'Merging through the API', run: benchMerge },
  { id: 'changes-tab', title: 'Changes tab in the browser', run: benchChangesTabBrowser },
  { id: 'discussions', title: 'Discussions of a merge request with 2,000 threads', run: benchDiscussions },
  { id: 'test-reports', title: 'A pipeline test report of 5,000 cases', run: benchTestReports },
  { id: 'merge-request-page', title: 'The merge request page: a 300-job pipeline, 20 deployments, 5,000 test cases', run: benchMergeRequestPage },
  { id: 'pipelines', title: 'Pipelines: push to running, a 500-job pipeline, idle runners, a 20 MB log', run: benchPipelines },
  { id: 'approval-state', title: 'Approval state with code owners', run: benchApprovalState },
  { id: 'merge-train', title: 'A merge train of 10 cars', run: benchMergeTrain },
];

function selected(argv: string[]): Benchmark[] {
  const only = argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  if (!only) return BENCHMARKS;
  const ids = only.split(',').map((id) => id.trim());
  const unknown = ids.filter((id) => !BENCHMARKS.some((bench) => bench.id === id));
  if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(', ')}; choose from ${BENCHMARKS.map((bench) => bench.id).join(', ')}`);
  return BENCHMARKS.filter((bench) => ids.includes(bench.id));
}

async function machine(): Promise<string> {
  const cpu = cpus();
  const gitVersion = await runCommand('git', ['--version'], { env: childEnv() })
    .then((result) => result.stdout.trim().replace(/^git version /, ''))
    .catch(() => '?');
  return `${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${process.platform} ${process.arch}, Node ${process.version}, git ${gitVersion}`;
}

/** The 1-minute load average, and a warning when other work shares the machine. */
function loadLine(when: string): string {
  const load = loadavg()[0]!;
  const cores = cpus().length;
  return `load average ${when}: ${load.toFixed(1)} on ${cores} cores${load > cores ? ' (busy: absolute figures are inflated; compare the ratios)' : ''}`;
}

function report(date: string, machineLine: string, rows: Row[], notes: string[]): string {
  return [
    '# Benchmark results',
    '',
    `${date} · ${machineLine}`,
    '',
    'Every figure is beside a baseline measured in the same run; the ratio is the figure to compare between runs and machines.',
    '',
    renderMarkdown(rows),
    '',
    ...notes.map((note) => `- ${note}`),
    '',
  ].join('\n');
}

let active: Cleanup | undefined;

async function main(): Promise<number> {
  const benchmarks = selected(process.argv.slice(2));
  ensureBuilt();
  const started = Date.now();
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  const machineLine = await machine();
  const loadBefore = loadLine('at the start');
  console.log(`Tributary bench · ${date} · ${machineLine}\n${loadBefore}\n`);

  const rows: Row[] = [];
  const notes: string[] = [];
  let errors = 0;
  for (const bench of benchmarks) {
    const benchStarted = Date.now();
    console.log(`▶ ${bench.title} …`);
    active = createCleanup();
    try {
      const result = await bench.run(active);
      rows.push(...result.rows);
      notes.push(...result.notes);
      for (const row of result.rows) console.log(`  ${row.benchmark}: ${row.tributary} vs ${row.baseline} → ${row.ratio} [${row.verdict}]`);
    } catch (error) {
      errors++;
      const message = error instanceof Error ? error.message : String(error);
      console.error(`  ${bench.title} failed: ${message}`);
      rows.push({ benchmark: bench.title, tributary: '—', baseline: '—', ratio: '—', target: '—', verdict: 'ERROR' });
      notes.push(`**${bench.title} could not run:** ${message.split('\n')[0]}`);
    } finally {
      await active.run();
      active = undefined;
    }
    console.log(`  (${((Date.now() - benchStarted) / 1000).toFixed(0)} s)\n`);
  }

  notes.push(`Whole run: ${((Date.now() - started) / 1000).toFixed(0)} s; ${loadBefore}, ${loadLine('at the end')}.`);
  console.log(renderText(rows));
  console.log('');
  for (const note of notes) console.log(`- ${note.replace(/\*\*/g, '')}`);
  writeFileSync(RESULTS_FILE, report(date, machineLine, rows, notes));
  console.log(`\nWritten to ${RESULTS_FILE}`);

  const missed = rows.filter((row) => row.verdict === 'FAIL').length;
  if (missed) console.log(`${missed} target(s) missed.`);
  if (errors) return 1;
  return missed && process.env.BENCH_STRICT === '1' ? 1 : 0;
}

process.on('exit', runPendingCleanupsSync);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping children and removing temp directories …`);
    void (active?.run() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}
const watchdog = setTimeout(() => {
  console.error(`\nThe bench ran longer than ${WATCHDOG_MS / 60_000} minutes: stopping.`);
  void (active?.run() ?? Promise.resolve()).finally(() => process.exit(1));
}, WATCHDOG_MS);
watchdog.unref();

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
    void (active?.run() ?? Promise.resolve()).finally(() => process.exit(1));
  },
);
