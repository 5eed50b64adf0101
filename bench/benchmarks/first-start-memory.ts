import { join } from 'node:path';
import { startBareFastify } from '../lib/bare-fastify.js';
import { type Cleanup } from '../lib/cleanup.js';
import { rssMiB, sleep } from '../lib/process.js';
import { formatRatio } from '../lib/stats.js';
import { startTributary } from '../lib/tributary.js';
import { ROOT_PASSWORD, verdict, type BenchResult } from './common.js';

/** How long a server is left alone before its resident memory is read. */
const IDLE_MS = 10_000;
/** The target: a new user on a 1 GB machine meets the first start first. */
const TARGET_MB = 250;

const mb = (mib: number) => (mib * 1024 * 1024) / 1e6;
const text = (mib: number | undefined) => (mib === undefined ? '?' : `${mb(mib).toFixed(0)} MB`);

/** Resident memory after `IDLE_MS` of idling (no request). */
async function idleRss(pid: number): Promise<number | undefined> {
  await sleep(IDLE_MS);
  return rssMiB(pid);
}

/**
 * Resident memory of `tributary start` on PGlite, idle 10 s after it first answers: on an
 * empty data directory (PGlite's initdb, migrations, root user), then after a restart on that
 * directory. Baseline: the bare Fastify server, idle the same time.
 */
export async function benchFirstStartMemory(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-mem-');
  const options = { name: 'tributary (first start)', dataDir: join(dir, 'data'), rootPassword: ROOT_PASSWORD };

  const first = await startTributary(cleanup, options);
  const firstRss = await idleRss(first.child.pid);
  await first.child.stop();
  const restarted = await startTributary(cleanup, { ...options, name: 'tributary (restart)' });
  const restartRss = await idleRss(restarted.child.pid);
  await restarted.child.stop();
  const bare = await startBareFastify(cleanup, { dir });
  const bareRss = await idleRss(bare.child.pid);
  await bare.child.stop();

  const ratio = (value: number | undefined) => (value !== undefined && bareRss ? formatRatio(value / bareRss) : '?');
  return {
    rows: [
      {
        benchmark: 'Resident memory idle after the first start on PGlite (initdb, migrations, root)',
        tributary: text(firstRss),
        baseline: `${text(bareRss)} bare Fastify`,
        ratio: ratio(firstRss),
        target: `< ${TARGET_MB} MB`,
        verdict: verdict(firstRss !== undefined && mb(firstRss) < TARGET_MB),
      },
      {
        benchmark: 'Resident memory idle after a restart on PGlite',
        tributary: text(restartRss),
        baseline: `${text(bareRss)} bare Fastify`,
        ratio: ratio(restartRss),
        target: '(information)',
        verdict: 'info',
      },
    ],
    notes: [
      `Memory: VmRSS of the server process (its PGlite thread included) from /proc, read after ${IDLE_MS / 1000} s without a request; ` +
        `first start ${first.startupMs.toFixed(0)} ms to the first 200, restart ${restarted.startupMs.toFixed(0)} ms.`,
    ],
  };
}
