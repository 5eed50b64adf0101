#!/usr/bin/env node
/**
 * `npm test`: every test Tributary has, in one command.
 *
 *   1. builds what the tests import: the shared contracts (`tsc -b packages/contracts`),
 *      and the web app (`npm run build -w web`) when browser tests will run and
 *      web/dist is missing or older than its sources;
 *   2. runs Vitest with all projects (unit, integration-pglite, integration-postgres, e2e);
 *   3. prints, as its very last line, `tests: N passed, N failed, N skipped`, counted
 *      from Vitest's JSON report, and exits non-zero when anything failed (a build
 *      included) or when no test ran at all.
 *
 * Extra arguments go to Vitest: `npm test -- --project unit`, `npm test -- server/src/git`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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

/** Runs a command with inherited output; resolves to its exit code (signals count as failure). */
let current;
function run(command, commandArgs, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], ...options });
    current = child;
    child.on('error', (error) => {
      process.stderr.write(`[test] could not run ${command}: ${error.message}\n`);
      resolve(127);
    });
    child.on('exit', (code, signal) => {
      current = undefined;
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

// Let Vitest tear down (stop the PostgreSQL cluster, close browsers) when we are stopped.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = true;
    if (current) current.kill(signal);
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

function newestMtime(paths) {
  let newest = 0;
  for (const path of paths) {
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) walk(path, (file) => (newest = Math.max(newest, statSync(file).mtimeMs)));
    else newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function webBuildIsStale() {
  const index = join(root, 'web', 'dist', 'index.html');
  if (!existsSync(index)) return 'web/dist is missing';
  const sources = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'web/package.json', 'web/tsconfig.json', 'packages/contracts/src'].map((path) => join(root, path));
  return newestMtime(sources) > statSync(index).mtimeMs ? 'web/dist is older than its sources' : undefined;
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
  const stale = webBuildIsStale();
  if (stale) {
    const webCode = await stage('build web', () => {
      log(`building the web app for the browser tests (${stale}): npm run build -w web`);
      return run(npm, ['run', 'build', '-w', 'web']);
    });
    if (webCode !== 0) {
      problems.push(`npm run build -w web failed (exit ${webCode}); the browser tests run against no (or an old) web app`);
      childEnv.TRIBUTARY_WEB_BUILD_FAILED = '1';
    }
  } else {
    log('web/dist is up to date');
  }
}

/* -------------------------------------------------------------------- tests */

const reportDir = mkdtempSync(join(tmpdir(), 'tributary-test-report-'));
const reportFile = join(reportDir, 'results.json');
const vitestCode = interrupted
  ? 130
  : await stage('vitest', () => {
      log(`running vitest ${args.length ? args.join(' ') : '(all projects)'}`);
      return run(
        process.execPath,
        [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...args],
        { env: childEnv },
      );
    });

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
