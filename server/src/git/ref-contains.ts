/** Branches and tags whose tips contain a commit: GitLab's GET …/commits/:sha/refs. */
import { assertObjectId, git } from './command.js';

export interface ContainingRef {
  type: 'branch' | 'tag';
  name: string;
}

export async function refsContaining(repoPath: string, commitId: string, kinds: ReadonlyArray<'branch' | 'tag'>): Promise<ContainingRef[]> {
  const prefixes = kinds.map((kind) => (kind === 'branch' ? 'refs/heads/' : 'refs/tags/'));
  const { stdout } = await git(repoPath)
    .sub('for-each-ref')
    .flag('--format=%(refname)', '--sort=refname')
    .option('--contains', assertObjectId(commitId))
    .revisions(...prefixes)
    .run();
  return stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((ref) => (ref.startsWith('refs/heads/') ? { type: 'branch' as const, name: ref.slice('refs/heads/'.length) } : { type: 'tag' as const, name: ref.slice('refs/tags/'.length) }));
}
