import { git } from '../../git/command.js';
import { createBareRepository, removeRepository, repositoryPath } from '../../git/storage.js';
import { createCommit } from '../../git/plumbing-write.js';
import type { RepositoryStorage } from './repository-storage.js';

/** The projects domain's storage, backed by bare repositories on disk (git/storage.ts). */
export function createGitRepositoryStorage(deps: { dataDir: string }): RepositoryStorage {
  const pathFor = (projectId: number) => repositoryPath(deps.dataDir, projectId);
  return {
    pathFor,
    create: (projectId, defaultBranch) => createBareRepository(pathFor(projectId), defaultBranch),
    remove: (projectId) => removeRepository(pathFor(projectId)),
    async initializeWithReadme(projectId, input) {
      await createCommit(pathFor(projectId), {
        branch: input.branch,
        startSha: null,
        actions: [{ action: 'create', file_path: 'README.md', content: Buffer.from(input.content) }],
        message: 'Initial commit',
        author: input.author,
        committer: input.author,
      });
    },
    async isEmpty(projectId) {
      const { stdout } = await git(pathFor(projectId)).sub('for-each-ref').flag('--count=1', '--format=%(refname)').revisions('refs/heads/').run();
      return stdout.length === 0;
    },
  };
}
