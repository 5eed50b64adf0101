import { gitbeakerClient, type TestUser } from './server.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from './merge-request-fixtures.js';

/**
 * Fixtures for the discussions tests (routes/notes/*.int.test.ts): a project whose merge
 * request changes a 40-line file in two places, adds a file and an image, members at every
 * role and a signed-in stranger, each with a gitbeaker client.
 */
export const LINES = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);

/** A 1×1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Setting up a notes project takes a dozen API calls and git writes: room for a busy CI machine. */
export const SETUP_TIMEOUT_MS = 180_000;

export type Client = ReturnType<typeof gitbeakerClient>;

export interface NotesProject {
  id: number;
  path: string;
  iid: number;
  mergeRequestId: number;
  /** the latest version's SHAs, as positions name them */
  refs: { baseSha: string; startSha: string; headSha: string };
}

export interface NotesFixtures extends MergeRequestFixtures {
  /** A project (root owns it) with a merge request from `feature` into `main`. */
  notesProject(name: string, options?: { visibility?: 'private' | 'internal' | 'public' }): Promise<NotesProject>;
  client(user: TestUser): Client;
  /** A member at `accessLevel` with a client. */
  memberClient(projectId: number, accessLevel: 10 | 20 | 30 | 40 | 50): Promise<{ user: TestUser; api: Client }>;
}

export async function startNotesFixtures(): Promise<NotesFixtures> {
  const fx = await startMergeRequestFixtures();
  const client = (user: TestUser) => gitbeakerClient(fx.server.url, user.token);
  return {
    ...fx,
    client,
    async memberClient(projectId, accessLevel) {
      const user = await fx.member(projectId, accessLevel);
      return { user, api: client(user) };
    },
    async notesProject(name, options = {}) {
      const project = await fx.createProject(name, options);
      await fx.root.Commits.create(project.id, 'main', 'Lines', [{ action: 'create', filePath: 'lines.txt', content: `${LINES.join('\n')}\n` }]);
      await fx.root.Branches.create(project.id, 'feature', 'main');
      const changed = LINES.map((line, i) => (i === 1 ? 'line 2 changed' : i === 29 ? 'line 30 changed' : line));
      changed.splice(2, 0, 'inserted after 2');
      await fx.root.Commits.create(project.id, 'feature', 'Change lines, add files', [
        { action: 'update', filePath: 'lines.txt', content: `${changed.join('\n')}\n` },
        { action: 'create', filePath: 'added.txt', content: 'one\ntwo\n' },
        { action: 'create', filePath: 'pic.png', content: PNG.toString('base64'), encoding: 'base64' },
      ]);
      const mr = await fx.root.MergeRequests.create(project.id, 'feature', 'main', 'Feature');
      const [version] = await fx.root.MergeRequests.allDiffVersions(project.id, mr.iid);
      return {
        id: project.id,
        path: project.path_with_namespace,
        iid: mr.iid,
        mergeRequestId: mr.id,
        refs: { baseSha: version!.base_commit_sha, startSha: version!.start_commit_sha, headSha: version!.head_commit_sha },
      };
    },
  };
}
