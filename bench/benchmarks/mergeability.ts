import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { repositoryPath } from '../../server/src/git/storage.js';
import { type Cleanup } from '../lib/cleanup.js';
import { git, gitEnv } from '../lib/git-repo.js';
import { createMergeRequest, type MergeRequestTarget } from '../lib/merge-requests.js';
import { generateMergeabilityRepository, MERGEABILITY_REFS, type MergeabilityLayout } from '../lib/mergeability.js';
import { benchDatabase } from '../lib/postgres.js';
import { assertLocal } from '../lib/process.js';
import { formatMs, formatRatio, formatSamples, median, timed } from '../lib/stats.js';
import { type Row } from '../lib/table.js';
import { createProject, createRootToken, startTributary } from '../lib/tributary.js';
import { ROOT_PASSWORD, verdict, type BenchResult } from './common.js';

/** The trial merge against git's own: at most this ratio (the fork 25,000 commits back). */
const MERGE_TREE_RATIO_TARGET = 1.2;

/** Timed runs per merge request (after one untimed warm-up). */
const RUNS = 5;
const LAYOUT: MergeabilityLayout = {
  commits: Number(process.env.BENCH_MERGEABILITY_COMMITS ?? 50_000),
  files: 500,
  deepForkBack: 25_000,
  shallowForkBack: 20,
  branchCommits: 20,
  targetMoves: 2 * (RUNS + 1),
};

interface Samples {
  api: number[];
  mergeTree: number[];
  /** the server's own git commands, run directly */
  serverGit: number[];
}

/** GET …/merge_ref, timed to the last byte; GitLab's (and our) merge_ref rechecks when outdated. */
async function timedMergeRef(mr: MergeRequestTarget): Promise<{ ms: number; commitId: string }> {
  const url = `${mr.server.url}/api/v4/projects/${mr.projectId}/merge_requests/${mr.iid}/merge_ref`;
  assertLocal(url);
  const start = performance.now();
  const response = await fetch(url, { headers: { 'PRIVATE-TOKEN': mr.token }, signal: AbortSignal.timeout(60_000) });
  const text = await response.text();
  const ms = performance.now() - start;
  if (!response.ok) throw new Error(`GET …/merge_ref answered ${response.status}: ${text.slice(0, 300)}`);
  return { ms, commitId: (JSON.parse(text) as { commit_id: string }).commit_id };
}

/**
 * The mergeability target: the mergeability of a merge request in a repository of 50,000 commits,
 * at most 1.2× the time of `git merge-tree --write-tree` on the same commits.
 *
 * Each run moves the target branch one commit on, straight in the stored repository (no
 * push, so no background job races the request), then times `GET …/merge_ref`, which finds
 * the trial merge outdated and redoes it before answering: the branch tips read, the trial
 * merge (merge-tree beside the divergence count), commit-tree, the compare-and-swap of
 * refs/merge-requests/:iid/merge, the result stored, plus HTTP and authorization. The
 * baseline is `git merge-tree --write-tree <target> <head>` on the same commits, from the
 * bench process, alternated with the requests.
 */
export async function benchMergeability(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-mergeability-');
  const home = join(dir, 'home');
  mkdirSync(home);
  const plainEnv = gitEnv(home);
  const source = join(dir, 'source.git');
  const generated = await timed(() => generateMergeabilityRepository(source, LAYOUT, plainEnv));
  const refs = generated.value;
  const sha = (ref: string) => refs.get(ref) ?? (() => { throw new Error(`the generated repository has no ${ref}`); })();

  const database = await benchDatabase(cleanup);
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  const server = await startTributary(cleanup, { name: 'tributary (mergeability)', dataDir, databaseUrl: database.url, rootPassword: ROOT_PASSWORD });
  const token = await createRootToken(server);
  const project = await createProject(server, token, 'bench-mergeability');
  const httpUrl = `${server.url}/${project.path_with_namespace}.git`;
  const stored = repositoryPath(dataDir, project.id);
  const pushed = await timed(async () => {
    await git(['--git-dir', source, 'push', '--quiet', httpUrl, `${MERGEABILITY_REFS.main}:${MERGEABILITY_REFS.main}`], { env: gitEnv(home, { token }), timeoutMs: 600_000 });
    const moves = Array.from({ length: LAYOUT.targetMoves }, (_, i) => `${MERGEABILITY_REFS.move(i + 1)}:${MERGEABILITY_REFS.move(i + 1)}`);
    await git(['--git-dir', source, 'push', '--quiet', httpUrl, `${MERGEABILITY_REFS.deep}:${MERGEABILITY_REFS.deep}`, `${MERGEABILITY_REFS.shallow}:${MERGEABILITY_REFS.shallow}`, ...moves], {
      env: gitEnv(home, { token }),
    });
  });
  const run = (args: string[]) => git(['--git-dir', stored, ...args], { env: plainEnv });

  const requests = {
    deep: await createMergeRequest(server, token, project.id, 'deep', 'main', 'Bench: forked 25,000 commits back'),
    shallow: await createMergeRequest(server, token, project.id, 'shallow', 'main', 'Bench: forked 20 commits back'),
  };
  // Let the refresh jobs of the pushes settle before timing anything.
  await timedMergeRef(requests.deep);
  await timedMergeRef(requests.shallow);

  const samples: Record<keyof typeof requests, Samples> = { deep: { api: [], mergeTree: [], serverGit: [] }, shallow: { api: [], mergeTree: [], serverGit: [] } };
  let move = 0;
  let target = sha(MERGEABILITY_REFS.main);
  let checked = false;
  for (const name of ['deep', 'shallow'] as const) {
    const head = sha(name === 'deep' ? MERGEABILITY_REFS.deep : MERGEABILITY_REFS.shallow);
    for (let i = 0; i <= RUNS; i++) {
      const next = sha(MERGEABILITY_REFS.move(++move));
      await run(['update-ref', MERGEABILITY_REFS.main, next, target]);
      target = next;
      const mergeTree = () => timed(() => run(['merge-tree', '--write-tree', target, head]));
      // Alternate which goes first, so neither always finds the other's work in the page cache.
      const raw = i % 2 === 0 ? await mergeTree() : undefined;
      const answered = await timedMergeRef(requests[name]);
      const rawMs = raw?.ms ?? (await mergeTree()).ms;
      if (!checked) {
        // The answer is the trial merge of these very commits.
        const parents = (await run(['show', '-s', '--format=%P', answered.commitId])).stdout.trim();
        if (parents !== `${target} ${head}`) throw new Error(`merge_ref ${answered.commitId} has parents ${parents}, expected ${target} ${head}`);
        checked = true;
      }
      // The git commands the server's recheck runs (mergeability/trial-merge.ts), without the ref update and the database
      // (it reads the tips from the ref files, git/ref-files.ts, with no git process).
      const serverGit = await timed(async () => {
        const [tree] = await Promise.all([run(['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', target, head]), run(['rev-list', '--count', `${head}..${target}`])]);
        await git(['--git-dir', stored, 'commit-tree', '-p', target, '-p', head, '-m', 'bench', tree.stdout.split('\0')[0]!.trim()], { env: plainEnv });
      });
      if (i === 0) continue; // warm-up
      samples[name].api.push(answered.ms);
      samples[name].mergeTree.push(rawMs);
      samples[name].serverGit.push(serverGit.ms);
    }
  }
  await server.child.stop();

  const rows: Row[] = [];
  const commits = LAYOUT.commits.toLocaleString('en-US');
  const deep = { api: median(samples.deep.api), git: median(samples.deep.mergeTree) };
  rows.push({
    benchmark: `Mergeability (GET …/merge_ref after the target moved), ${commits}-commit repository, branch forked ${LAYOUT.deepForkBack.toLocaleString('en-US')} commits back (median of ${RUNS})`,
    tributary: formatMs(deep.api),
    baseline: `${formatMs(deep.git)} git merge-tree --write-tree`,
    ratio: formatRatio(deep.api / deep.git),
    target: `≤ ${MERGE_TREE_RATIO_TARGET}×`,
    verdict: verdict(deep.api / deep.git <= MERGE_TREE_RATIO_TARGET),
  });
  const shallow = { api: median(samples.shallow.api), git: median(samples.shallow.mergeTree) };
  rows.push({
    benchmark: `Mergeability, same repository, branch forked ${LAYOUT.shallowForkBack} commits back (median of ${RUNS})`,
    tributary: formatMs(shallow.api),
    baseline: `${formatMs(shallow.git)} git merge-tree --write-tree`,
    ratio: formatRatio(shallow.api / shallow.git),
    target: '(information)',
    verdict: 'info',
  });
  rows.push({
    benchmark: `Mergeability, forked ${LAYOUT.deepForkBack.toLocaleString('en-US')} back, against the server's own git commands`,
    tributary: formatMs(deep.api),
    baseline: `${formatMs(median(samples.deep.serverGit))} merge-tree ∥ rev-list --count, commit-tree`,
    ratio: formatRatio(deep.api / median(samples.deep.serverGit)),
    target: '(information)',
    verdict: 'info',
  });
  const notes = [
    `Mergeability: Tributary on ${database.description}, one \`tributary start\` in a child process. Repository made by git fast-import in ${formatMs(generated.ms)}: ` +
      `${commits} linear commits on main each rewriting one of ${LAYOUT.files} small files; \`deep\` forks ${LAYOUT.deepForkBack.toLocaleString('en-US')} commits before main's tip and ` +
      `\`shallow\` ${LAYOUT.shallowForkBack}, each with ${LAYOUT.branchCommits} commits adding files (clean merges); pushed over smart HTTP in ${formatMs(pushed.ms)} ` +
      `(the stored repository has no commit-graph: receive-pack writes none, and git's merge-base search reads commits from the pack). ` +
      `Each run moves main one commit on in the stored repository (update-ref, no push), then times \`GET …/merge_ref\` to the last byte: the server finds the ` +
      `merge ref outdated and redoes the trial merge before answering. Baseline: \`git merge-tree --write-tree <target> <head>\` on the stored repository, ` +
      `alternately before and after the request. Forked ${LAYOUT.deepForkBack.toLocaleString('en-US')} back: ${formatSamples(samples.deep.api)}; merge-tree ${formatSamples(samples.deep.mergeTree)}; ` +
      `the server's git commands run directly ${formatSamples(samples.deep.serverGit)}. Forked ${LAYOUT.shallowForkBack} back: ${formatSamples(samples.shallow.api)}; merge-tree ${formatSamples(samples.shallow.mergeTree)} ` +
      `(there the fixed costs dominate: four more git processes, a few queries, HTTP).`,
  ];
  return { rows, notes };
}
