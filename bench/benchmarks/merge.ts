import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { repositoryPath } from '../../server/src/git/storage.js';
import { type Cleanup } from '../lib/cleanup.js';
import { generateRepository, git, gitEnv } from '../lib/git-repo.js';
import { createMergeRequest, waitForVersion } from '../lib/merge-requests.js';
import { benchDatabase } from '../lib/postgres.js';
import { cpuMs, sleep } from '../lib/process.js';
import { formatMs, formatRatio, formatSamples, median, timed } from '../lib/stats.js';
import { api, createProject, createRootToken, startTributary } from '../lib/tributary.js';
import { COMMITS, ROOT_PASSWORD, RUNS, verdict, type BenchResult } from './common.js';

/** Merges measured: one untimed warm-up, then RUNS. */
const MERGES = Math.max(RUNS, 5) + 1;

/**
 * A fast-import stream of `count` branches `<prefix>-<i>`, each one commit off `from` adding
 * its own file (so every merge is a real three-way merge: the target has moved on since).
 */
function branchesStream(prefix: string, count: number, from: string): Buffer {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const message = `Add ${prefix} ${i}\n`;
    const content = `${prefix} ${i}\n`;
    const date = `${1_800_000_000 + i} +0000`;
    parts.push(
      `commit refs/heads/${prefix}-${i}\n`,
      `author Bench <bench@example.com> ${date}\n`,
      `committer Bench <bench@example.com> ${date}\n`,
      `data ${Buffer.byteLength(message)}\n${message}`,
      `from ${from}\n`,
      `M 100644 inline merge/${prefix}-${i}.txt\n`,
      `data ${Buffer.byteLength(content)}\n${content}\n`,
    );
  }
  parts.push('done\n');
  return Buffer.from(parts.join(''));
}

/**
 * The merge target: `PUT …/merge` of a merge request (merge commit method) against the raw
 * plumbing sequence the merge is made of (merge-tree --write-tree, commit-tree, update-ref
 * with the old value), both on the repository Tributary stores, on PostgreSQL.
 */
export async function benchMerge(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-merge-');
  const home = join(dir, 'home');
  mkdirSync(home);
  const plainEnv = gitEnv(home);

  // main with COMMITS linear commits over 100 files; branches off main~1 for the API and the raw merges.
  const source = join(dir, 'source.git');
  const commits = Math.min(COMMITS, 10_000);
  await generateRepository(source, commits, plainEnv);
  const fork = (await git(['--git-dir', source, 'rev-parse', 'refs/heads/main~1'], { env: plainEnv })).stdout.trim();
  for (const prefix of ['api', 'raw']) await git(['fast-import', '--quiet', '--done'], { env: plainEnv, cwd: source, input: branchesStream(prefix, MERGES, fork) });

  const database = await benchDatabase(cleanup);
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  const server = await startTributary(cleanup, { name: 'tributary (merge)', dataDir, databaseUrl: database.url, rootPassword: ROOT_PASSWORD });
  const token = await createRootToken(server);
  const project = await createProject(server, token, 'bench-merge');
  const httpUrl = `${server.url}/${project.path_with_namespace}.git`;
  const authEnv = gitEnv(home, { token });
  const stored = repositoryPath(dataDir, project.id);
  await git(['--git-dir', source, 'push', '--quiet', httpUrl, 'refs/heads/main:refs/heads/main'], { env: authEnv });
  await git(['--git-dir', source, 'push', '--quiet', httpUrl, 'refs/heads/main:refs/heads/raw-main', 'refs/heads/api-*:refs/heads/api-*', 'refs/heads/raw-*:refs/heads/raw-*'], {
    env: authEnv,
  });

  const heads: string[] = [];
  const iids: number[] = [];
  for (let i = 0; i < MERGES; i++) {
    const head = (await git(['--git-dir', stored, 'rev-parse', `refs/heads/api-${i}`], { env: plainEnv })).stdout.trim();
    const mr = await createMergeRequest(server, token, project.id, `api-${i}`, 'main', `Bench merge ${i}`);
    await waitForVersion(mr, head, performance.now());
    heads.push(head);
    iids.push(mr.iid);
  }
  await sleep(1_000); // the refresh jobs of the pushes and creations finish first

  const run = (args: string[]) => git(['--git-dir', stored, ...args], { env: plainEnv });
  const apiMs: number[] = [];
  const rawMs: number[] = [];
  /** the server process's own CPU during the timed merges (its git children not included) */
  let serverCpuMs = 0;
  for (let i = 0; i < MERGES; i++) {
    const cpuBefore = cpuMs(server.child.pid);
    const merged = await timed(() => api<{ state: string; merge_commit_sha: string }>(server, token, 'PUT', `/projects/${project.id}/merge_requests/${iids[i]}/merge`, { sha: heads[i] }));
    if (merged.value.state !== 'merged') throw new Error(`merge ${i} answered state ${merged.value.state}`);
    const cpuAfter = cpuMs(server.child.pid);
    if (i > 0) serverCpuMs += (cpuAfter ?? 0) - (cpuBefore ?? 0);
    await sleep(500); // the other open requests into main are rechecked after the push event: let that finish

    const old = (await run(['rev-parse', 'refs/heads/raw-main'])).stdout.trim();
    const raw = await timed(async () => {
      const tree = (await run(['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', old, `refs/heads/raw-${i}`])).stdout.toString().split('\0')[0]!.trim();
      const commit = (await run(['commit-tree', tree, '-p', old, '-p', `refs/heads/raw-${i}`, '-m', `Merge branch 'raw-${i}' into 'raw-main'`])).stdout.trim();
      await run(['update-ref', 'refs/heads/raw-main', commit, old]);
    });
    await sleep(200);
    if (i === 0) continue; // warm-up
    apiMs.push(merged.ms);
    rawMs.push(raw.ms);
  }
  const mainMerges = (await run(['rev-list', '--count', '--merges', 'refs/heads/main'])).stdout.trim();
  await server.child.stop();
  if (Number(mainMerges) !== MERGES) throw new Error(`main has ${mainMerges} merge commits, expected ${MERGES}`);

  const apiMedian = median(apiMs);
  const rawMedian = median(rawMs);
  const ratio = apiMedian / rawMedian;
  return {
    rows: [
      {
        benchmark: `A merge through the API: PUT …/merge, merge commit, ${commits.toLocaleString('en-US')}-commit repository (median of ${apiMs.length})`,
        tributary: formatMs(apiMedian),
        baseline: `${formatMs(rawMedian)} git merge-tree + commit-tree + update-ref`,
        ratio: formatRatio(ratio),
        target: '≤ 2×',
        verdict: verdict(ratio <= 2),
      },
      {
        benchmark: 'A merge through the API: server CPU per merge (its own process, git children not included)',
        tributary: formatMs(serverCpuMs / apiMs.length),
        baseline: '—',
        ratio: '—',
        target: '(information)',
        verdict: 'info',
      },
    ],
    notes: [
      `Merge: Tributary on ${database.description}, one \`tributary start\` in a child process. A repository of ${commits.toLocaleString('en-US')} linear commits over 100 files ` +
        `(git fast-import) and ${MERGES} branches off main~1, each adding one file, pushed over smart HTTP; one merge request per branch. ` +
        `Each \`PUT …/merge\` (with \`sha\`, merge commit method, default message; root's token) is timed to the last byte of the merged request's JSON, ` +
        `then, on the repository Tributary stores and from the bench process, the same merge as raw plumbing into a copy of main: ` +
        `\`merge-tree --write-tree\`, \`commit-tree -p <tip> -p <branch>\`, \`update-ref <ref> <new> <old>\` (git's process starts included). ` +
        `One untimed warm-up of each. API: ${formatSamples(apiMs)}; raw: ${formatSamples(rawMs)}. ` +
        `Server CPU per merge: its own process from /proc while the request ran (10 ms ticks summed over the merges; its git children not included).`,
    ],
  };
}
