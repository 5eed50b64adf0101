import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Cleanup } from '../lib/cleanup.js';
import { benchDatabase } from '../lib/postgres.js';
import { assertLocal, cpuMs } from '../lib/process.js';
import { formatMs, formatRatio, formatSamples, median, timed } from '../lib/stats.js';
import type { Row } from '../lib/table.js';
import { api, createRootToken, startTributary } from '../lib/tributary.js';
import { measureActivityInBrowser } from './activity-browser.js';
import { cpuText, ROOT_PASSWORD, verdict, type BenchResult } from './common.js';

/** A merge request with 2,000 threads and 10,000 notes. */
const THREADS = 2_000;
const NOTES_PER_THREAD = 5;
/** The first page of the discussions list answers within this on PostgreSQL. */
const FIRST_PAGE_TARGET_MS = 30;
const SAMPLES = Math.max(9, Number(process.env.BENCH_SAMPLES ?? 9));
/** Untimed requests before each series (a fresh server's first requests are slower: see `sample`). */
const WARM_UP = 20;

/**
 * Seeds the threads straight into the database: the benchmark measures reading them, and
 * 10,000 POSTs would only measure writing. Same columns the API writes; ANALYZE after.
 */
async function seedThreads(url: string, ids: { projectId: number; mergeRequestId: number; authorId: number }): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO discussions (id, project_id, merge_request_id, created_at)
       SELECT substr(encode(sha256(convert_to('bench-' || i, 'UTF8')), 'hex'), 1, 40), $1, $2, now() - (($3 - i) * interval '1 second')
         FROM generate_series(1, $3) AS i`,
      [ids.projectId, ids.mergeRequestId, THREADS],
    );
    await client.query(
      `INSERT INTO notes (project_id, merge_request_id, discussion_id, type, author_id, body, created_at, updated_at)
       SELECT d.project_id, d.merge_request_id, d.id, 'DiscussionNote', $2, 'Note ' || n || ' of a thread: ' || repeat('words ', 20),
              d.created_at + n * interval '1 millisecond', d.created_at + n * interval '1 millisecond'
         FROM discussions d CROSS JOIN generate_series(0, $3 - 1) AS n WHERE d.merge_request_id = $1`,
      [ids.mergeRequestId, ids.authorId, NOTES_PER_THREAD],
    );
    await client.query('ANALYZE discussions');
    await client.query('ANALYZE notes');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The two statements a keyset page runs (notes.repository.ts), straight through node-postgres. */
async function rawSqlPage(url: string, mergeRequestId: number): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const run = async () => {
    const page = await client.query<{ id: string }>(
      `SELECT d.id, d.seq, to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_text FROM discussions d
        WHERE d.merge_request_id = $1 AND true ORDER BY d.created_at, d.seq LIMIT $2`,
      [mergeRequestId, 21],
    );
    await client.query(
      `SELECT n.*, d.internal FROM notes n JOIN discussions d ON d.id = n.discussion_id
        WHERE n.merge_request_id = $1 AND n.discussion_id = ANY($2::text[]) ORDER BY n.created_at, n.id`,
      [mergeRequestId, page.rows.slice(0, 20).map((row) => row.id)],
    );
  };
  try {
    for (let i = 0; i < WARM_UP; i++) await run();
    const samples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) samples.push((await timed(run)).ms);
    return samples;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function timedGet(url: string, token: string): Promise<{ ms: number; count: number; next: string | null }> {
  assertLocal(url);
  const start = performance.now();
  const response = await fetch(url, { headers: { 'PRIVATE-TOKEN': token }, signal: AbortSignal.timeout(30_000) });
  const body = (await response.json()) as unknown[];
  const ms = performance.now() - start;
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  const next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1] ?? null;
  return { ms, count: body.length, next };
}

/**
 * The discussions list of a merge request with 2,000 threads and 10,000 notes, on PostgreSQL:
 * the first keyset page (the Activity section's first request), the first offset page with its
 * count, and the last keyset page, beside the raw SQL a keyset page runs.
 */
export async function benchDiscussions(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-discussions-');
  const database = await benchDatabase(cleanup);
  const server = await startTributary(cleanup, { name: 'tributary (discussions)', dataDir: dir, databaseUrl: database.url, rootPassword: ROOT_PASSWORD });
  const token = await createRootToken(server);
  const project = await api<{ id: number; path_with_namespace: string }>(server, token, 'POST', '/projects', { name: 'bench-discussions', path: 'bench-discussions', initialize_with_readme: true });
  await api(server, token, 'POST', `/projects/${project.id}/repository/commits`, {
    branch: 'feature',
    start_branch: 'main',
    commit_message: 'Feature',
    actions: [{ action: 'create', file_path: 'feature.txt', content: 'feature\n' }],
  });
  const mr = await api<{ id: number; iid: number }>(server, token, 'POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Bench: threads' });
  const root = await api<{ id: number }>(server, token, 'GET', '/user');
  const seeded = await timed(() => seedThreads(database.url, { projectId: project.id, mergeRequestId: mr.id, authorId: root.id }));

  const base = `${server.url}/api/v4/projects/${project.id}/merge_requests/${mr.iid}/discussions`;
  // The server is fresh: its first requests run code V8 has not optimised yet and statements
  // PostgreSQL has not planned. The target is the steady state, so each series is timed after
  // WARM_UP requests; the very first request is reported beside it.
  const firstRequest = await timedGet(`${base}?pagination=keyset&per_page=20`, token);
  const sample = async (url: string) => {
    for (let i = 0; i < WARM_UP; i++) await timedGet(url, token);
    const samples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) samples.push((await timedGet(url, token)).ms);
    return samples;
  };
  // CPU per request of the keyset series (server process, and PostgreSQL's postmaster with its backends):
  // unlike the wall time it hardly moves when other work shares the machine.
  const cpuOf = () => [cpuMs(server.child.pid!), database.postmasterPid ? cpuMs(database.postmasterPid, true) : undefined] as const;
  const [serverBefore, dbBefore] = cpuOf();
  const keyset = await sample(`${base}?pagination=keyset&per_page=20`);
  const [serverAfter, dbAfter] = cpuOf();
  const perRequest = (before: number | undefined, after: number | undefined) =>
    before === undefined || after === undefined ? undefined : (after - before) / (WARM_UP + SAMPLES);
  const offset = await sample(`${base}?per_page=20`);
  const offset100 = await sample(`${base}?per_page=100`);
  // Walk the keyset pages to the end; time the last one (a deep cursor stays one index range scan).
  let url: string | null = `${base}?pagination=keyset&per_page=100`;
  let pages = 0;
  let threads = 0;
  let lastMs = 0;
  while (url && pages < THREADS) {
    const page = await timedGet(url, token);
    pages++;
    threads += page.count;
    lastMs = page.ms;
    url = page.next;
  }
  if (threads !== THREADS) throw new Error(`the keyset pages listed ${threads} threads, expected ${THREADS}`);
  const raw = await rawSqlPage(database.url, mr.id);
  // BENCH_BROWSER=0 measures the API only (the browser visits are most of the run's four minutes).
  const browser =
    process.env.BENCH_BROWSER === '0'
      ? { rows: [], notes: ['Activity section in the browser: left out (BENCH_BROWSER=0).'] }
      : await measureActivityInBrowser(cleanup, {
          serverUrl: server.url,
          mergeRequestPath: `/${project.path_with_namespace}/-/merge_requests/${mr.iid}`,
          firstNoteText: 'Note 0 of a thread',
          apiFirstPageMs: median(keyset),
        });

  const rawMedian = median(raw);
  const row = (benchmark: string, samples: number[], target: string, ok: boolean): Row => ({
    benchmark,
    tributary: formatMs(median(samples)),
    baseline: `raw SQL ${formatMs(rawMedian)}`,
    ratio: formatRatio(median(samples) / rawMedian),
    target,
    verdict: verdict(ok),
  });
  return {
    rows: [
      row('Discussions, first keyset page (20 threads, 2,000 threads / 10,000 notes)', keyset, `< ${FIRST_PAGE_TARGET_MS} ms`, median(keyset) < FIRST_PAGE_TARGET_MS),
      row('Discussions, first offset page with X-Total (20 threads)', offset, `< ${FIRST_PAGE_TARGET_MS} ms`, median(offset) < FIRST_PAGE_TARGET_MS),
      { ...row('Discussions, first offset page (100 threads, 500 notes)', offset100, 'info', true), verdict: 'info' },
      { ...row(`Discussions, last of ${pages} keyset pages of 100`, [lastMs], 'info', true), verdict: 'info' },
      {
        benchmark: 'Discussions, first keyset page: CPU per request (from /proc, 10 ms ticks summed over the series and its warm-up)',
        tributary: `${cpuText(perRequest(serverBefore, serverAfter))} server + ${cpuText(perRequest(dbBefore, dbAfter))} PostgreSQL`,
        baseline: '—',
        ratio: '—',
        target: '(information)',
        verdict: 'info',
      },
      ...browser.rows,
    ],
    notes: [
      `Discussions: ${THREADS} threads of ${NOTES_PER_THREAD} notes seeded by SQL in ${formatMs(seeded.ms)} on ${database.description}; the very first request (keyset page 1, fresh server) ${formatMs(firstRequest.ms)}, then ${WARM_UP} untimed requests before each series; samples (ms): keyset ${formatSamples(keyset)}; offset ${formatSamples(offset)}; raw SQL ${formatSamples(raw)}.`,
      ...browser.notes,
    ],
  };
}
