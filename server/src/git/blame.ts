/** `git blame --porcelain`, grouped as GitLab's blame API answers: runs of lines by one commit. */
import { git } from './command.js';

export interface BlameRange {
  commitId: string;
  lines: string[];
}

/** Parses porcelain output into consecutive runs of lines from the same commit; pure, exported for tests. */
export function parseBlamePorcelain(output: string): BlameRange[] {
  const ranges: BlameRange[] = [];
  let current: string | null = null;
  for (const line of output.split('\n')) {
    if (line.startsWith('\t')) {
      if (current === null) continue;
      const last = ranges[ranges.length - 1];
      if (last && last.commitId === current) last.lines.push(line.slice(1));
      else ranges.push({ commitId: current, lines: [line.slice(1)] });
      continue;
    }
    const header = /^([0-9a-f]{40}|[0-9a-f]{64}) \d+ \d+/.exec(line);
    if (header) current = header[1]!;
  }
  return ranges;
}

/** Blame of `path` at the commit `commitId`, lines `start`..`end` (1-based, inclusive) when given. */
export async function blame(repoPath: string, commitId: string, path: string, range?: { start: number; end: number }): Promise<BlameRange[]> {
  const command = git(repoPath).sub('blame').flag('--porcelain');
  if (range) command.option('-L', `${range.start},${range.end}`);
  const { stdout } = await command.objectIds(commitId).paths(path).run();
  return parseBlamePorcelain(stdout.toString('utf8'));
}
