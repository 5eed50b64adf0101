import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitStatements } from '../../../../platform/db/migrate.js';
import { MIGRATIONS_DIR } from '../../../../platform/paths.js';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { SETUP_TIMEOUT_MS, startNotesFixtures, type NotesFixtures, type NotesProject } from '../../../../test-support/notes-fixtures.js';

/**
 * Upgrading loses nothing: a database from before system notes and suggestion rows were written
 * with their event holds events, versions and diff notes no list had turned into notes or rows.
 * The catch-up jobs that migration 0022 enqueues write them (dated when they happened), once,
 * however often they run.
 */
describe(`system notes and suggestions an older database lacks (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let project: NotesProject;
  const catchUp = splitStatements(readFileSync(join(MIGRATIONS_DIR, '0022_writes_when_events_happen.sql'), 'utf8'));

  async function settled(): Promise<void> {
    await eventually(async () => {
      const { rows } = await fx.server.app.db.query<{ busy: number }>(`SELECT count(*)::int AS busy FROM background_jobs WHERE state = 'running' OR (state = 'pending' AND run_at <= now())`);
      return rows[0]!.busy === 0;
    });
  }

  async function systemNotes(): Promise<Array<{ body: string; created_at: string }>> {
    const notes = (await fx.root.MergeRequestNotes.all(project.id, project.iid, { sort: 'asc', perPage: 100 })) as unknown as Array<{ body: string; system: boolean; created_at: string }>;
    return notes.filter((note) => note.system);
  }

  beforeAll(async () => {
    fx = await startNotesFixtures();
    project = await fx.notesProject('catch-up');
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  it('writes the notes and rows an older database had not written, once', async () => {
    const db = fx.server.app.db;
    // What an older version left: a push whose "added 1 commit" no list had written yet…
    await fx.root.Commits.create(project.id, 'feature', 'Second change', [{ action: 'create', filePath: 'second.txt', content: '2\n' }]);
    await settled();
    await db.query(`DELETE FROM notes WHERE id IN (SELECT note_id FROM merge_request_system_note_sources WHERE merge_request_id = $1 AND source = 'version')`, [project.mergeRequestId]);
    await db.query(`DELETE FROM merge_request_system_note_sources WHERE merge_request_id = $1 AND source = 'version'`, [project.mergeRequestId]);
    // …an event written without its note (as the merge request services did before), in the past…
    const happened = new Date('2026-01-02T03:04:05.000Z');
    await db.query(`INSERT INTO merge_request_events (merge_request_id, user_id, action, from_value, to_value, created_at) VALUES ($1, $2, 'title', 'Feature', 'Feature, renamed', $3)`, [
      project.mergeRequestId,
      fx.server.root.id,
      happened,
    ]);
    // …and a diff note with a suggestion whose rows no read had derived.
    const [version] = await fx.root.MergeRequests.allDiffVersions(project.id, project.iid);
    const position = { baseSha: version!.base_commit_sha, startSha: version!.start_commit_sha, headSha: version!.head_commit_sha, positionType: 'text', oldPath: 'lines.txt', newPath: 'lines.txt', newLine: 2 };
    const thread = (await fx.root.MergeRequestDiscussions.create(project.id, project.iid, '```suggestion\nline 2 suggested\n```', { position: position as never })) as unknown as { notes: Array<{ id: number }> };
    await db.query('DELETE FROM suggestions WHERE note_id = $1', [thread.notes[0]!.id]);
    const before = await systemNotes();
    expect(before.map((note) => note.body)).toEqual([]);

    // The migration's catch-up, twice: every source still gets one note.
    for (let run = 0; run < 2; run += 1) {
      for (const statement of catchUp) await db.query(statement);
      await settled();
    }

    const after = await systemNotes();
    expect(after.map((note) => note.body.split('\n')[0])).toEqual(['changed title from **Feature** to **Feature{+, renamed+}**', 'added 1 commit']);
    expect(new Date(after[0]!.created_at).toISOString()).toBe(happened.toISOString());
    const { rows } = await db.query<{ to_content: string }>('SELECT to_content FROM suggestions WHERE note_id = $1', [thread.notes[0]!.id]);
    expect(rows).toEqual([{ to_content: 'line 2 suggested\n' }]);
  });
});
