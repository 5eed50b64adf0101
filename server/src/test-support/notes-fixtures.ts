import { gitbeakerClient, type TestUser } from './server.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from './merge-request-fixtures.js';
import { eventually } from './eventually.js';

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
  /** How many thread-tracing jobs (notes.update_diff_positions) this merge request has had. */
  tracingJobs(mergeRequestId: number): Promise<number>;
  /**
   * Waits until a tracing job beyond the first `jobsBefore` has run and none is pending. A
   * push's job is enqueued by an event after its version is recorded, so waiting for "all
   * done" alone can pass before that job exists.
   */
  tracingDone(mergeRequestId: number, jobsBefore: number): Promise<void>;
}

export async function startNotesFixtures(): Promise<NotesFixtures> {
  const fx = await startMergeRequestFixtures();
  const client = (user: TestUser) => gitbeakerClient(fx.server.url, user.token);
  const tracing = async (mergeRequestId: number) => {
    const { rows } = await fx.server.app.db.query<{ total: number; open: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE state <> 'done')::int AS open
         FROM background_jobs WHERE queue = 'notes.update_diff_positions' AND (payload->>'mergeRequestId')::bigint = $1`,
      [mergeRequestId],
    );
    return rows[0]!;
  };
  return {
    ...fx,
    client,
    async memberClient(projectId, accessLevel) {
      const user = await fx.member(projectId, accessLevel);
      return { user, api: client(user) };
    },
    async tracingJobs(mergeRequestId) {
      return (await tracing(mergeRequestId)).total;
    },
    async tracingDone(mergeRequestId, jobsBefore) {
      await eventually(async () => {
        const { total, open } = await tracing(mergeRequestId);
        return total > jobsBefore && open === 0;
      });
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
