import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryPath } from '../../server/src/git/storage.js';
import { seedPgliteDir } from '../../server/src/test-support/pglite-template.js';
import { type Cleanup } from '../lib/cleanup.js';
import { commitCount, generateRepository, git, gitEnv } from '../lib/git-repo.js';
import { childEnv, runCommand } from '../lib/process.js';
import { formatMs, formatRatio, formatSamples, median, timed } from '../lib/stats.js';
import { createProject, createRootToken, startTributary } from '../lib/tributary.js';
import { COMMITS, ROOT_PASSWORD, RUNS, verdict, type BenchResult } from './common.js';

/**
 * `git clone` of a repository of 10,000 commits (generated with git
 * fast-import, pushed once to Tributary) through Tributary's smart HTTP,
 * beside `git clone --no-local` of the very bare repository Tributary
 * stores, straight from disk: both pack the same objects from the same
 * repository; the difference is Tributary's HTTP layer, auth and process
 * plumbing. One untimed warm-up each, then RUNS timed runs, alternating.
 */
export async function benchGitClone(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-git-');
  const home = join(dir, 'home');
  mkdirSync(home);
  const plainEnv = gitEnv(home);

  const source = join(dir, 'source.git');
  const generated = await timed(() => generateRepository(source, COMMITS, plainEnv));
  const generatedCount = await commitCount(source, plainEnv);
  if (generatedCount !== COMMITS) throw new Error(`fast-import made ${generatedCount} commits, expected ${COMMITS}`);

  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  await seedPgliteDir(join(dataDir, 'pglite'));
  const server = await startTributary(cleanup, { name: 'tributary (git)', dataDir, rootPassword: ROOT_PASSWORD });
  const token = await createRootToken(server);
  const project = await createProject(server, token, 'bench-git');
  const httpUrl = `${server.url}/${project.path_with_namespace}.git`;
  const authEnv = gitEnv(home, { token });

  // Push once through Tributary (hooks included), beside a push to a bare repository on disk.
  const pushed = await timed(() => git(['--git-dir', source, 'push', '--quiet', httpUrl, 'refs/heads/main:refs/heads/main'], { env: authEnv }));
  const diskTarget = join(dir, 'push-target.git');
  await git(['init', '--quiet', '--bare', '--initial-branch=main', diskTarget], { env: plainEnv });
  const pushedToDisk = await timed(() => git(['--git-dir', source, 'push', '--quiet', `file://${diskTarget}`, 'refs/heads/main:refs/heads/main'], { env: plainEnv }));
  rmSync(diskTarget, { recursive: true, force: true });

  const stored = repositoryPath(dataDir, project.id);
  const storedCount = await commitCount(stored, plainEnv);
  if (storedCount !== COMMITS) throw new Error(`Tributary's repository ${stored} has ${storedCount} commits after the push, expected ${COMMITS}`);

  let cloneNumber = 0;
  const clone = async (from: string, env: NodeJS.ProcessEnv, check = false) => {
    const target = join(dir, `clone-${++cloneNumber}`);
    const result = await timed(() => git(['clone', '--quiet', '--no-local', from, target], { env }));
    if (check) {
      const count = await commitCount(join(target, '.git'), plainEnv);
      if (count !== COMMITS) throw new Error(`a clone from ${from} has ${count} commits, expected ${COMMITS}`);
    }
    rmSync(target, { recursive: true, force: true });
    return result.ms;
  };

  await clone(httpUrl, authEnv, true); // warm-up (and check)
  await clone(stored, plainEnv, true);
  const viaHttp: number[] = [];
  const fromDisk: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    viaHttp.push(await clone(httpUrl, authEnv));
    fromDisk.push(await clone(stored, plainEnv));
  }
  await server.child.stop();

  const httpMedian = median(viaHttp);
  const diskMedian = median(fromDisk);
  const gitVersion = (await runCommand('git', ['--version'], { env: childEnv() })).stdout.trim();
  const commits = COMMITS.toLocaleString('en-US');
  return {
    rows: [
      {
        benchmark: `git clone, ${commits} commits, smart HTTP (median of ${RUNS})`,
        tributary: formatMs(httpMedian),
        baseline: `${formatMs(diskMedian)} git clone --no-local from disk`,
        ratio: formatRatio(httpMedian / diskMedian),
        target: '≤ 1.1×',
        verdict: verdict(httpMedian / diskMedian <= 1.1),
      },
      {
        benchmark: `git push, ${commits} commits to an empty project (once)`,
        tributary: formatMs(pushed.ms),
        baseline: `${formatMs(pushedToDisk.ms)} git push to file://`,
        ratio: formatRatio(pushed.ms / pushedToDisk.ms),
        target: '(information)',
        verdict: 'info',
      },
    ],
    notes: [
      `git clone: ${gitVersion}; repository of ${commits} linear commits, each rewriting one of 100 small files, made by git fast-import in ${formatMs(generated.ms)}; ` +
        `Tributary on PGlite; clones of the repository Tributary stores. Through Tributary: ${formatSamples(viaHttp)}; from disk: ${formatSamples(fromDisk)}.`,
    ],
  };
}
