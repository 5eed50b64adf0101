import { join } from 'node:path';
import { startBareFastify } from '../lib/bare-fastify.js';
import { type Cleanup } from '../lib/cleanup.js';
import { formatMs, formatRatio, formatSamples, median } from '../lib/stats.js';
import { startTributary } from '../lib/tributary.js';
import { ROOT_PASSWORD, RUNS, verdict, type BenchResult } from './common.js';

/**
 * `tributary start` on PGlite, from spawn to the first 200 of GET
 * /api/v4/version: once on an empty data directory (PGlite's initdb,
 * migrations, root user), then restarts on that initialised directory.
 * Baseline: `node -e` starting a bare Fastify server, same polling.
 */
export async function benchColdStart(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-cold-');
  const dataDir = join(dir, 'data');
  const options = { name: 'tributary (cold start)', dataDir, rootPassword: ROOT_PASSWORD };

  const first = await startTributary(cleanup, options);
  await first.child.stop();

  const warm: number[] = [];
  const bare: number[] = [];
  // Alternate the two, so a noisy neighbour hurts both alike.
  for (let i = 0; i < RUNS; i++) {
    const server = await startTributary(cleanup, options);
    warm.push(server.startupMs);
    await server.child.stop();
    const baseline = await startBareFastify(cleanup, { dir });
    bare.push(baseline.startupMs);
    await baseline.child.stop();
  }

  const warmMedian = median(warm);
  const bareMedian = median(bare);
  return {
    rows: [
      {
        benchmark: 'Cold start, first start on PGlite (initdb, migrations, root)',
        tributary: formatMs(first.startupMs),
        baseline: `${formatMs(bareMedian)} bare Fastify`,
        ratio: formatRatio(first.startupMs / bareMedian),
        target: '(information)',
        verdict: 'info',
      },
      {
        benchmark: `Cold start, warm restart on PGlite (median of ${RUNS})`,
        tributary: formatMs(warmMedian),
        baseline: `${formatMs(bareMedian)} bare Fastify`,
        ratio: formatRatio(warmMedian / bareMedian),
        target: '< 1 s',
        verdict: verdict(warmMedian < 1000),
      },
    ],
    notes: [
      `Cold start: spawn of \`node server/dist/tributary.mjs start\` to the first 200 of \`GET /api/v4/version\`, polled every 10 ms. ` +
        `Warm restarts: ${formatSamples(warm)}. Bare Fastify (\`node -e\`): ${formatSamples(bare)}.`,
    ],
  };
}
