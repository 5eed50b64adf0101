/** Commit counts per author email on a ref: GitLab's repository contributors. */
import { git } from './command.js';

export interface Contributor {
  name: string;
  email: string;
  commits: number;
}

/** Counts `name\0email` lines per email (case-insensitive), keeping the latest name seen; pure, exported for tests. */
export function countContributors(output: string): Contributor[] {
  const byEmail = new Map<string, Contributor>();
  for (const line of output.split('\n')) {
    if (!line) continue;
    const [name = '', email = ''] = line.split('\0');
    const key = email.toLowerCase();
    const known = byEmail.get(key);
    if (known) known.commits++;
    else byEmail.set(key, { name, email, commits: 1 });
  }
  return [...byEmail.values()];
}

export async function contributors(repoPath: string, commitId: string): Promise<Contributor[]> {
  const { stdout } = await git(repoPath).sub('log').flag('--format=%aN%x00%aE', '--no-merges').objectIds(commitId).run();
  return countContributors(stdout.toString('utf8'));
}
