import type { Camelize, ExpandedMergeRequestSchema } from '@gitbeaker/rest';
import type { ApiResponse } from './repository-fixtures.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from './merge-request-fixtures.js';
import { gitbeakerClient, type TestUser } from './server.js';

/**
 * Fixtures for the PUT …/merge tests (routes/merge-requests/merge*.int.test.ts), on top of the
 * merge request fixtures: a Maintainer and a Developer whose names and emails the merge commits
 * are checked against, a project per test (merge settings differ per test), branches of one
 * commit per file, requests opened by the Developer, the merge call, and commit reads.
 */
export interface MergeFixture {
  project: { id: number; path_with_namespace: string };
}

export interface CommitInfo {
  parents: string[];
  /** `Name <email>` */
  author: string;
  committer: string;
  tree: string;
  message: string;
}

export interface OpenOptions {
  title?: string;
  removeSourceBranch?: boolean;
  squash?: boolean;
  /** the Developer's by default */
  token?: string;
}

export interface MergingFixtures extends MergeRequestFixtures {
  /** Mia Maintainer <mia@example.com>, a Maintainer of every project(): she may merge into protected main */
  maintainer: TestUser;
  /** Dev Eloper <dev@example.com>, a Developer of every project() and the author of openMr()'s requests */
  developer: TestUser;
  /** git in the project's bare repository, output as trimmed UTF-8 */
  git(projectId: number, args: string[]): Promise<string>;
  commitInfo(projectId: number, sha: string): Promise<CommitInfo>;
  treeOf(projectId: number, rev: string): Promise<string>;
  /** A branch off `from` with one commit per file (message `Change <path>`, body `Body of <path>`); returns its head. */
  branch(projectId: number, name: string, files: Record<string, string>, from?: string): Promise<string>;
  /** A project of its own with the maintainer and developer as members, and these project settings. */
  project(settings?: Record<string, unknown>): Promise<MergeFixture>;
  /** A request from `source` into main, opened through gitbeaker. */
  openMr(fixture: MergeFixture, source: string, options?: OpenOptions): Promise<ExpandedMergeRequestSchema | Camelize<ExpandedMergeRequestSchema>>;
  /** PUT …/merge as the maintainer unless another token is given. */
  merge(projectId: number, iid: number, body?: Record<string, unknown>, token?: string): Promise<ApiResponse<any>>;
}

export async function startMergingFixtures(): Promise<MergingFixtures> {
  const base = await startMergeRequestFixtures();
  const maintainer = await base.server.createUser({ name: 'Mia Maintainer', email: 'mia@example.com' });
  const developer = await base.server.createUser({ name: 'Dev Eloper', email: 'dev@example.com' });
  let counter = 0;
  const git = async (projectId: number, args: string[]) => (await base.rawGit(projectId, args)).toString('utf8').trim();
  return {
    ...base,
    maintainer,
    developer,
    git,
    async commitInfo(projectId, sha) {
      const [parents, author, committer, tree, message] = (await git(projectId, ['show', '-s', '--format=%P%x00%an <%ae>%x00%cn <%ce>%x00%T%x00%B', sha])).split('\0');
      return { parents: parents!.split(' ').filter(Boolean), author: author!, committer: committer!, tree: tree!, message: message!.trim() };
    },
    treeOf: (projectId, rev) => git(projectId, ['rev-parse', `${rev}^{tree}`]),
    async branch(projectId, name, files, from = 'main') {
      let parent = await base.tip(projectId, from);
      for (const [path, content] of Object.entries(files)) {
        parent = await base.writeCommit(projectId, { parent, files: [{ path, content }], message: `Change ${path}\n\nBody of ${path}` });
      }
      await base.setBranch(projectId, name, parent);
      return parent;
    },
    async project(settings = {}) {
      const created = await base.createProject(`merge-${++counter}`);
      await base.root.ProjectMembers.add(created.id, 40, { userId: maintainer.id });
      await base.root.ProjectMembers.add(created.id, 30, { userId: developer.id });
      if (Object.keys(settings).length > 0) await base.call('PUT', `/projects/${created.id}`, { body: settings });
      return { project: created };
    },
    openMr(fixture, source, options = {}) {
      const client = gitbeakerClient(base.server.url, options.token ?? developer.token);
      return client.MergeRequests.create(fixture.project.id, source, 'main', options.title ?? `Merge ${source}`, {
        removeSourceBranch: options.removeSourceBranch,
        squash: options.squash,
      });
    },
    merge: (projectId, iid, body = {}, token = maintainer.token) => base.call('PUT', `/projects/${projectId}/merge_requests/${iid}/merge`, { token, body }),
  };
}
