import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../platform/db/database.js';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { SETUP_TIMEOUT_MS, startNotesFixtures, type NotesFixtures, type NotesProject } from '../../../../test-support/notes-fixtures.js';
import { getMrDiscussionsQuery } from '../../../graphql/editor/extension-documents.js';

/**
 * Reads only read: serving a merge request's notes, discussions and suggestions (REST, GraphQL
 * and the web app's own routes) sends the database SELECTs and nothing else, whatever happened
 * to the merge request before. System notes and suggestion rows are written when their event
 * happens. Every statement the app's database wrapper is sent while one read is handled is
 * recorded; the job queue's and the event bus's own polling is left out, and each read waits
 * until no job is due, so no background work is running meanwhile.
 */
describe(`reading notes writes nothing (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let project: NotesProject;
  /** Statements recorded while a read is in flight (the test sends one at a time). */
  let recording: string[] | undefined;
  /** The job queue and the event bus poll on their own schedule: their statements are not the read's. */
  const background = /\b(background_jobs|domain_events|pg_stat_activity)\b/;

  /** Records every statement the app's database wrapper (every repository's) is sent during a read. */
  function recordStatements(db: Database): void {
    const query = db.query.bind(db);
    const transaction = db.transaction.bind(db);
    const record = (text: string) => {
      if (recording && !background.test(text)) recording.push(text);
    };
    db.query = ((text: string, params?: readonly unknown[], options?: object) => {
      record(text);
      return query(text, params, options);
    }) as Database['query'];
    db.transaction = ((fn: Parameters<Database['transaction']>[0]) => {
      record('BEGIN');
      return transaction((tx) =>
        fn({
          query: (text, params, options) => {
            record(text);
            return tx.query(text, params, options);
          },
        }),
      );
    }) as Database['transaction'];
  }

  /** A statement that writes, locks or notifies: anything but a plain read. */
  const writes = (text: string) => !/^\s*(SELECT|WITH)\b/i.test(text) || /\b(INSERT|UPDATE|DELETE|pg_notify|nextval)\b/i.test(text);

  /** Until no job is due or running: what the events enqueued is done. */
  async function settled(): Promise<void> {
    await eventually(async () => {
      const { rows } = await fx.server.app.db.query<{ busy: number }>(
        `SELECT count(*)::int AS busy FROM background_jobs WHERE state = 'running' OR (state = 'pending' AND run_at <= now())`,
      );
      return rows[0]!.busy === 0;
    });
  }

  async function statementsOf(method: 'GET' | 'POST', url: string, payload?: object): Promise<string[]> {
    recording = [];
    try {
      const response = await fx.server.app.http.inject({ method, url, payload, headers: { 'private-token': fx.server.root.token, ...(payload ? { 'content-type': 'application/json' } : {}) } });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
      return recording;
    } finally {
      recording = undefined;
    }
  }

  /** Every way the notes, threads and suggestions of the merge request are read. */
  async function readEverything(): Promise<void> {
    await settled();
    const base = `/api/v4/projects/${project.id}/merge_requests/${project.iid}`;
    const reads = [
      await statementsOf('GET', `${base}/notes?sort=asc&per_page=100`),
      await statementsOf('GET', `${base}/notes?sort=desc&order_by=updated_at`),
      await statementsOf('GET', `${base}/discussions?per_page=100`),
      await statementsOf('GET', `${base}/discussions?pagination=keyset&per_page=2`),
      await statementsOf('GET', `${base}/notes_award_emoji`),
      await statementsOf('GET', `/-/projects/${project.id}/merge_requests/${project.iid}/note_author_roles`),
      await statementsOf('POST', '/api/graphql', { query: getMrDiscussionsQuery, variables: { projectPath: project.path, iid: String(project.iid) } }),
    ];
    expect(reads.flat().filter(writes)).toEqual([]);
    expect(reads.every((statements) => statements.length > 0)).toBe(true);
  }

  async function notes(): Promise<Array<{ id: number; body: string; system: boolean; suggestions?: Array<{ to_content: string }> }>> {
    return (await fx.root.MergeRequestNotes.all(project.id, project.iid, { sort: 'asc', perPage: 100 })) as never;
  }

  /**
   * The system note `done` describes is there. Called after readEverything: had the reads not
   * found it written already, they would have had to write it.
   */
  async function hasNote(done: (body: string) => boolean): Promise<void> {
    const bodies = (await notes()).filter((note) => note.system).map((note) => note.body);
    expect(bodies.some(done), JSON.stringify(bodies)).toBe(true);
  }

  beforeAll(async () => {
    fx = await startNotesFixtures();
    recordStatements(fx.server.app.db);
    project = await fx.notesProject('reads-only');
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  it('after opening', async () => {
    await readEverything();
  });

  it('after a title change, draft and ready', async () => {
    await fx.root.MergeRequests.edit(project.id, project.iid, { title: 'Feature, renamed' });
    await readEverything();
    await hasNote((body) => body === 'changed title from **Feature** to **Feature{+, renamed+}**');
    await fx.root.MergeRequests.edit(project.id, project.iid, { title: 'Draft: Feature, renamed' });
    await readEverything();
    await hasNote((body) => body === 'marked this merge request as **draft**');
  });

  it('after assignees and reviewers change', async () => {
    await fx.root.MergeRequests.edit(project.id, project.iid, { assigneeIds: [fx.server.root.id], reviewerIds: [fx.server.root.id] });
    await readEverything();
    await hasNote((body) => body.startsWith('assigned to'));
    await hasNote((body) => body.startsWith('requested review from'));
  });

  it('after labels and a milestone are set', async () => {
    const milestone = await fx.root.ProjectMilestones.create(project.id, 'v1');
    await fx.root.MergeRequests.edit(project.id, project.iid, { labels: 'bug', milestoneId: milestone.id });
    await readEverything();
    await hasNote((body) => body.includes('label'));
    await hasNote((body) => body.includes('milestone'));
  });

  it('after close and reopen', async () => {
    await fx.root.MergeRequests.edit(project.id, project.iid, { stateEvent: 'close' });
    await readEverything();
    await hasNote((body) => body === 'closed');
    await fx.root.MergeRequests.edit(project.id, project.iid, { stateEvent: 'reopen' });
    await readEverything();
    await hasNote((body) => body === 'reopened');
  });

  it('after a push (its note is written by the job the version enqueued)', async () => {
    await fx.root.Commits.create(project.id, 'feature', 'Second change', [{ action: 'create', filePath: 'second.txt', content: '2\n' }]);
    await readEverything();
    await hasNote((body) => body.startsWith('added 1 commit'));
  });

  it('after a diff note with a suggestion is published, and after its edit', async () => {
    const [version] = await fx.root.MergeRequests.allDiffVersions(project.id, project.iid);
    const position = { baseSha: version!.base_commit_sha, startSha: version!.start_commit_sha, headSha: version!.head_commit_sha, positionType: 'text', oldPath: 'lines.txt', newPath: 'lines.txt', newLine: 2 };
    // a published draft: the publish answers 204, so nothing reads the new note before readEverything
    await fx.root.MergeRequestDraftNotes.create(project.id, project.iid, '```suggestion\nline 2 suggested\n```', { position: position as never });
    await fx.root.MergeRequestDraftNotes.publishBulk(project.id, project.iid);
    await readEverything();
    const note = (await notes()).find((candidate) => candidate.body.includes('line 2 suggested')) as { id: number; suggestions: Array<{ to_content: string }> };
    expect(note.suggestions.map((suggestion) => suggestion.to_content)).toEqual(['line 2 suggested\n']);

    const edited = (await fx.root.MergeRequestNotes.edit(project.id, project.iid, note.id, { body: '```suggestion\none\n```\n```suggestion\ntwo\n```' })) as unknown as { suggestions: unknown[] };
    expect(edited.suggestions).toHaveLength(2);
    await readEverything();
  });

  it('after a merge', async () => {
    await fx.root.MergeRequests.edit(project.id, project.iid, { title: 'Feature, renamed' });
    await eventually(async () => {
      const response = await fx.server.app.http.inject({ method: 'PUT', url: `/api/v4/projects/${project.id}/merge_requests/${project.iid}/merge`, headers: { 'private-token': fx.server.root.token } });
      return response.statusCode === 200;
    });
    await readEverything();
    await hasNote((body) => body === 'merged');
  });
});
