/**
 * The mergeability benchmark's repository: a long history where a merge request's branch
 * forked long ago (the trial merge's merge-base search walks tens of thousands of commits,
 * as it does for a long-lived branch of a big project) and one that forked recently.
 */
import { git } from './git-repo.js';

export interface MergeabilityLayout {
  /** linear commits on main */
  commits: number;
  /** files main's commits rewrite in turn */
  files: number;
  /** `deep` forks this many commits before main's tip … */
  deepForkBack: number;
  /** … `shallow` this many */
  shallowForkBack: number;
  /** commits on each source branch (new files: clean merges) */
  branchCommits: number;
  /** children of main's tip (main-move-1…n), one per timed run: the target moving on */
  targetMoves: number;
}

export const MERGEABILITY_REFS = {
  main: 'refs/heads/main',
  deep: 'refs/heads/deep',
  shallow: 'refs/heads/shallow',
  move: (n: number) => `refs/heads/main-move-${n}`,
};

/** A `git fast-import` stream of that layout. Dates are fixed: the same SHAs on every run. */
export function mergeabilityStream(layout: MergeabilityLayout): Buffer {
  const parts: string[] = [];
  let mark = 0;
  const commit = (ref: string, from: number | null, path: string, content: string): number => {
    mark++;
    const date = `${1_700_000_000 + mark * 60} +0000`;
    const message = `${ref.replace('refs/heads/', '')}: ${path}\n`;
    parts.push(`commit ${ref}\nmark :${mark}\nauthor Bench <bench@example.com> ${date}\ncommitter Bench <bench@example.com> ${date}\n`);
    parts.push(`data ${Buffer.byteLength(message)}\n${message}`);
    if (from !== null) parts.push(`from :${from}\n`);
    parts.push(`M 100644 inline ${path}\ndata ${Buffer.byteLength(content)}\n${content}\n`);
    return mark;
  };
  const forks = new Map<number, string>([
    [layout.commits - layout.deepForkBack, MERGEABILITY_REFS.deep],
    [layout.commits - layout.shallowForkBack, MERGEABILITY_REFS.shallow],
  ]);
  const forkMarks = new Map<string, number>();
  let tip = 0;
  for (let i = 1; i <= layout.commits; i++) {
    const file = i % layout.files;
    tip = commit(MERGEABILITY_REFS.main, null, `src/d${file % 50}/file-${file}.txt`, `file ${file}\nchanged by commit ${i}\n`);
    const branch = forks.get(i);
    if (branch) forkMarks.set(branch, tip);
  }
  for (const [branch, fork] of forkMarks) {
    let parent = fork;
    for (let i = 1; i <= layout.branchCommits; i++) parent = commit(branch, i === 1 ? parent : null, `${branch.slice('refs/heads/'.length)}/f-${i}.txt`, `${branch} ${i}\n`);
  }
  for (let n = 1; n <= layout.targetMoves; n++) commit(MERGEABILITY_REFS.move(n), tip, `moves/m-${n}.txt`, `move ${n}\n`);
  parts.push('done\n');
  return Buffer.from(parts.join(''));
}

/** Creates the bare repository at `dir` and returns every ref's SHA. */
export async function generateMergeabilityRepository(dir: string, layout: MergeabilityLayout, env: NodeJS.ProcessEnv): Promise<Map<string, string>> {
  await git(['init', '--quiet', '--bare', '--initial-branch=main', dir], { env });
  await git(['fast-import', '--quiet', '--done'], { env, cwd: dir, input: mergeabilityStream(layout), timeoutMs: 600_000 });
  const { stdout } = await git(['--git-dir', dir, 'for-each-ref', '--format=%(refname) %(objectname)'], { env });
  return new Map(
    stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' ') as [string, string]),
  );
}
