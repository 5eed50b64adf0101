#!/usr/bin/env node
/**
 * `npm test`: every test Tributary has, in one command.
 *
 *   1. builds what the tests import: the shared contracts (`tsc -b packages/contracts`),
 *      and the web app (`npm run build -w web`) when browser tests will run and the
 *      hash of the web app's sources differs from the one stamped in web/dist when it
 *      was last built (see webSourcesHash);
 *   2. runs Vitest with all projects (unit, unit-isolated, integration-pglite, integration-postgres, e2e)
 *      and, at the same time, the type check of every workspace (`npm run typecheck`) and
 *      then the lint (`npm run lint`: ESLint, the layers, import cycles), when no filter was
 *      given (TRIBUTARY_TEST_TYPECHECK=0 skips both, =1 forces them);
 *   3. prints each project's totals and the ten slowest files, then, as its very last
 *      line, `tests: N passed, N failed, N skipped`, counted from Vitest's JSON report,
 *      and exits non-zero when anything failed (a build, the type check or the lint included) or
 *      when no test ran at all.
 *
 * Extra arguments go to Vitest: `npm test -- --project unit`, `npm test -- server/src/git`.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const timings = [];
const problems = [];

function log(message) {
  process.stdout.write(`\n[test] ${message}\n`);
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Runs a command with inherited output (or, with `collect`, its output kept and handed to
 * `collect` at the end, so that it does not interleave with Vitest's); resolves to its exit
 * code (signals count as failure).
 */
const children = new Set();
function run(command, commandArgs, options = {}, collect) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: ['ignore', collect ? 'pipe' : 'inherit', collect ? 'pipe' : 'inherit'], ...options });
    children.add(child);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => {
      process.stderr.write(`[test] could not run ${command}: ${error.message}\n`);
      resolve(127);
    });
    child.on('close', (code, signal) => {
      children.delete(child);
      collect?.(output);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

// Let Vitest tear down (stop the PostgreSQL cluster, close browsers) when we are stopped.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = true;
    if (children.size > 0) for (const child of children) child.kill(signal);
    else process.exit(130);
  });
}

async function stage(name, fn) {
  const started = Date.now();
  const result = await fn();
  const took = Date.now() - started;
  timings.push([name, took]);
  return result;
}

/* ------------------------------------------------------------ what will run */

function walk(dir, visit) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, visit);
    else visit(path);
  }
}

function selectedProjects() {
  const projects = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--project' && args[i + 1]) projects.push(args[++i]);
    else if (arg.startsWith('--project=')) projects.push(arg.slice('--project='.length));
  }
  return projects;
}

/** Positional arguments are Vitest's file filters (substrings of the path). */
function fileFilters() {
  const filters = [];
  const takesValue = new Set(['--project', '--reporter', '--outputFile', '-t', '--testNamePattern', '--config', '-c', '--root', '--dir', '--shard', '--maxWorkers', '--bail', '--retry', '--testTimeout']);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith('-')) {
      if (takesValue.has(arg)) i++;
      continue;
    }
    filters.push(arg);
  }
  return filters;
}

function e2eWillRun() {
  const projects = selectedProjects();
  if (projects.length > 0 && !projects.some((pattern) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test('e2e'))) return false;
  const files = [];
  walk(join(root, 'e2e'), (path) => path.endsWith('.e2e.test.ts') && files.push(relative(root, path)));
  const filters = fileFilters();
  return files.some((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)));
}

/** What the web build reads: its sources, its configuration, the contracts, and the locked dependencies. */
const WEB_SOURCES = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'web/package.json', 'web/tsconfig.json', 'packages/contracts/src', 'package-lock.json'];
/** Written into web/dist after a build: the hash of the sources it was built from. */
const WEB_STAMP = join(root, 'web', 'dist', '.sources-hash');

/**
 * A hash of every file the web build reads (paths and contents, in a fixed order). A checkout
 * sets every file's time to the moment of the checkout, so times cannot tell whether web/dist
 * is current; contents can, and hashing them takes well under a second.
 */
function webSourcesHash() {
  const files = [];
  for (const source of WEB_SOURCES) {
    const path = join(root, source);
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) walk(path, (file) => files.push(file));
    else files.push(path);
  }
  const hash = createHash('sha256');
  for (const file of files.map((path) => relative(root, path)).sort()) hash.update(`${file}\0`).update(readFileSync(join(root, file))).update('\0');
  return hash.digest('hex');
}

function webBuildIsStale(hash) {
  if (!existsSync(join(root, 'web', 'dist', 'index.html'))) return 'web/dist is missing';
  if (!existsSync(WEB_STAMP)) return 'web/dist has no hash of its sources';
  return readFileSync(WEB_STAMP, 'utf8').trim() === hash ? undefined : 'the sources changed since web/dist was built';
}

/* ------------------------------------------------------------------ builds */

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const childEnv = { ...process.env };

const contractsCode = await stage('build contracts', () => {
  log('building packages/contracts (tsc -b)');
  return run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'packages/contracts']);
});
if (contractsCode !== 0) problems.push(`tsc -b packages/contracts failed (exit ${contractsCode})`);

if (e2eWillRun()) {
  const hash = webSourcesHash();
  const stale = webBuildIsStale(hash);
  if (stale) {
    const webCode = await stage('build web', () => {
      log(`building the web app for the browser tests (${stale}): npm run build -w web`);
      return run(npm, ['run', 'build', '-w', 'web']);
    });
    if (webCode !== 0) {
      problems.push(`npm run build -w web failed (exit ${webCode}); the browser tests run against no (or an old) web app`);
      childEnv.TRIBUTARY_WEB_BUILD_FAILED = '1';
    } else {
      writeFileSync(WEB_STAMP, `${hash}\n`);
    }
  } else {
    log('web/dist was built from these sources (their hash matches web/dist/.sources-hash): not rebuilt');
  }
}

/* --------------------------------------------------------------- type check */

/** The whole run (no filter, no project chosen) type-checks every workspace, then lints it, beside the tests. */
const typecheckWanted = process.env.TRIBUTARY_TEST_TYPECHECK === '1' || (process.env.TRIBUTARY_TEST_TYPECHECK !== '0' && args.length === 0);
let typecheckOutput = '';
let lintOutput = '';
const typecheck = typecheckWanted
  ? stage('typecheck (beside vitest)', () => {
      log('type-checking every workspace (npm run typecheck), then linting (npm run lint), while the tests run; their output follows the tests');
      return run(npm, ['run', 'typecheck', '--silent'], {}, (output) => (typecheckOutput = output));
    })
  : Promise.resolve(0);
// one after the other: both are CPU-bound, and the tests already use both cores
const lint = typecheckWanted ? typecheck.then(() => stage('lint (beside vitest)', () => run(npm, ['run', 'lint', '--silent'], {}, (output) => (lintOutput = output)))) : Promise.resolve(0);

/* -------------------------------------------------------------------- tests */

const reportDir = mkdtempSync(join(tmpdir(), 'tributary-test-report-'));
const reportFile = join(reportDir, 'results.json');
const timingsFile = join(reportDir, 'timings.json');
const vitestCode = interrupted
  ? 130
  : await stage('vitest', () => {
      log(`running vitest ${args.length ? args.join(' ') : '(all projects)'}`);
      return run(
        process.execPath,
        [
          join(root, 'node_modules', 'vitest', 'vitest.mjs'),
          'run',
          '--reporter=default',
          '--reporter=json',
          `--reporter=${join(root, 'scripts', 'test-timings-reporter.mjs')}`,
          `--outputFile.json=${reportFile}`,
          ...args,
        ],
        { env: { ...childEnv, TRIBUTARY_TEST_TIMINGS: timingsFile } },
      );
    });

const typecheckCode = await typecheck;
if (typecheckWanted) {
  if (typecheckOutput.trim()) process.stdout.write(`\n[test] npm run typecheck said:\n${typecheckOutput.trimEnd()}\n`);
  if (typecheckCode !== 0) problems.push(`npm run typecheck failed (exit ${typecheckCode}): a type error, see its output above`);
  else log('npm run typecheck: no type errors');
  const lintCode = await lint;
  if (lintCode !== 0) {
    process.stdout.write(`\n[test] npm run lint said:\n${lintOutput.trimEnd()}\n`);
    problems.push(`npm run lint failed (exit ${lintCode}): see its output above`);
  } else log(lintOutput.trim().split('\n').at(-1) ?? 'npm run lint: no errors');
}

/* ----------------------------------------------------------------- timings */

/** Per project: files, tests, the sum of its files' times, and its span from first start to last end. */
function printTimings(files) {
  const projects = new Map();
  for (const file of files) {
    const project = projects.get(file.project) ?? { files: 0, tests: 0, ms: 0, start: Infinity, end: 0 };
    project.files += 1;
    project.tests += file.tests;
    project.ms += file.ms;
    project.start = Math.min(project.start, file.start);
    project.end = Math.max(project.end, file.end);
    projects.set(file.project, project);
  }
  const lines = ['', '[test] per project: files, tests, sum of file times (time in workers), wall time from its first file to its last'];
  for (const [name, project] of [...projects].sort((a, b) => a[0].localeCompare(b[0]))) {
    lines.push(`  ${name.padEnd(22)} ${String(project.files).padStart(4)} files ${String(project.tests).padStart(5)} tests ${seconds(project.ms).padStart(9)} in workers ${seconds(project.end - project.start).padStart(9)} wall`);
  }
  lines.push('[test] the ten slowest files (import, hooks and tests):');
  for (const file of [...files].sort((a, b) => b.ms - a.ms).slice(0, 10)) lines.push(`  ${seconds(file.ms).padStart(8)}  ${file.project.padEnd(22)} ${file.file}`);
  process.stdout.write(lines.join('\n') + '\n');
}

try {
  printTimings(JSON.parse(readFileSync(timingsFile, 'utf8')).files);
} catch {
  // no timings (vitest stopped before the end): the summary below says why
}

let report;
try {
  report = JSON.parse(readFileSync(reportFile, 'utf8'));
} catch {
  problems.push(`vitest wrote no JSON report (exit ${vitestCode})`);
}
rmSync(reportDir, { recursive: true, force: true });

let passed = 0;
let failed = 0;
let skipped = 0;
if (report) {
  passed = report.numPassedTests ?? 0;
  failed = report.numFailedTests ?? 0;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A file that fails before or outside its tests (an import error, a failing beforeAll
  // with no test reached) has no failed test of its own: count the file as one failure.
  for (const file of report.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed').length;
    if (file.status === 'failed' && failedTests === 0) {
      failed += 1;
      problems.push(`${relative(root, file.name)} failed outside its tests: ${String(file.message ?? '').split('\n')[0]}`);
    }
  }
  if (vitestCode !== 0 && failed === 0 && passed > 0 && !interrupted) {
    failed += 1;
    problems.push(`vitest exited with ${vitestCode} although no test failed (unhandled errors: see "Errors" above)`);
  }
}
if (passed + failed === 0) problems.push('no test ran');

process.stdout.write('\n[test] timings: ' + timings.map(([name, ms]) => `${name} ${seconds(ms)}`).join(', ') + '\n');
for (const problem of problems) process.stdout.write(`[test] problem: ${problem}\n`);
process.stdout.write(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);

const ok = failed === 0 && passed > 0 && vitestCode === 0 && problems.length === 0 && !interrupted;
process.exitCode = ok ? 0 : 1;
