import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { LINES, SETUP_TIMEOUT_MS, startNotesFixtures, type NotesFixtures } from '../../../../test-support/notes-fixtures.js';

type AnyRecord = Record<string, any>;

/** The feature branch of the notes fixtures: line 2 changed, a line inserted after it, line 30 changed. */
const FEATURE_LINES = (() => {
  const changed = LINES.map((line, i) => (i === 1 ? 'line 2 changed' : i === 29 ? 'line 30 changed' : line));
  changed.splice(2, 0, 'inserted after 2');
  return changed;
})();

/**
 * Draft diff comments after a real git push (domains/notes/outdated-discussions.service.ts):
 * the tracing job moves every author's drafts onto the new version with the threads, so a
 * review published later lands on the lines it was about; a draft whose line changed keeps
 * its position (it has no thread to mark outdated); a reply drafted in a thread is left alone.
 */
describe(`draft notes traced onto new versions (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;

  beforeAll(async () => {
    fx = await startNotesFixtures();
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  it(
    'moves drafts whose lines shifted, keeps outdated ones where they were, and publishes onto the new lines',
    async () => {
      const project = await fx.notesProject('drafts-traced');
      const reviewer = await fx.memberClient(project.id, 30);
      const position = (lines: { oldLine?: number; newLine?: number }) => ({ ...project.refs, positionType: 'text', oldPath: 'lines.txt', newPath: 'lines.txt', ...lines }) as never;
      const onInserted = (await fx.root.MergeRequestDraftNotes.create(project.id, project.iid, 'Draft on the inserted line', { position: position({ newLine: 3 }) })) as AnyRecord;
      const onLine3 = (await reviewer.api.MergeRequestDraftNotes.create(project.id, project.iid, 'Draft on line 3', { position: position({ oldLine: 3, newLine: 4 }) })) as AnyRecord;
      const thread = (await fx.root.MergeRequestDiscussions.create(project.id, project.iid, 'A plain thread')) as unknown as AnyRecord;
      const reply = (await reviewer.api.MergeRequestDraftNotes.create(project.id, project.iid, 'Drafted reply', { inReplyToDiscussionId: thread.id as never })) as AnyRecord;
      const draftsRow = async (id: number) =>
        (await fx.server.app.db.query<{ position: AnyRecord | null; line_code: string | null; updated_at: Date }>('SELECT position, line_code, updated_at FROM draft_notes WHERE id = $1', [id])).rows[0]!;
      const before = { inserted: await draftsRow(onInserted.id), line3: await draftsRow(onLine3.id), reply: await draftsRow(reply.id) };

      // a real push: two lines on top move every line down, the inserted line is edited
      const git = fx.rootGit();
      await git.git(['clone', '-q', git.repoUrl(project.path), 'work-drafts']);
      await git.git(['checkout', '-q', 'feature'], { cwd: 'work-drafts' });
      const edited = ['top 1', 'top 2', ...FEATURE_LINES.map((line) => (line === 'inserted after 2' ? 'inserted after 2, edited' : line))];
      writeFileSync(join(git.dir, 'work-drafts', 'lines.txt'), `${edited.join('\n')}\n`);
      await git.git(['commit', '-q', '-a', '-m', 'Push'], { cwd: 'work-drafts' });
      const head = (await git.git(['rev-parse', 'HEAD'], { cwd: 'work-drafts' })).stdout.trim();
      const jobsBefore = await fx.tracingJobs(project.mergeRequestId);
      await git.git(['push', '-q', git.repoUrl(project.path), 'feature'], { cwd: 'work-drafts' });
      await eventually(async () => (await fx.root.MergeRequests.allDiffVersions(project.id, project.iid)).length === 2);
      await fx.tracingDone(project.mergeRequestId, jobsBefore);

      // the shifted line's draft follows it (its author sees it there), nobody edited it
      const moved = (await reviewer.api.MergeRequestDraftNotes.show(project.id, project.iid, onLine3.id)) as AnyRecord;
      expect(moved.position).toMatchObject({ head_sha: head, old_line: 3, new_line: 6 });
      expect(moved.line_code).toMatch(/^[0-9a-f]{40}_3_6$/);
      expect((await draftsRow(onLine3.id)).updated_at).toEqual(before.line3.updated_at);
      // the changed line's draft stays on the version it was written on; the reply has no position to move
      expect(await draftsRow(onInserted.id)).toEqual(before.inserted);
      expect(await draftsRow(reply.id)).toEqual(before.reply);

      // idempotent: a second run finds nothing to move (the outdated draft is traced again, and stays)
      expect(await fx.server.app.services.outdatedDiscussions.run({ mergeRequestId: project.mergeRequestId })).toEqual({ moved: 0, outdated: 0, draftsMoved: 0 });
      expect(await draftsRow(onInserted.id)).toEqual(before.inserted);

      // published, the moved draft is a thread on the new version's line
      await reviewer.api.MergeRequestDraftNotes.publishBulk(project.id, project.iid);
      const discussions = (await fx.root.MergeRequestDiscussions.all(project.id, project.iid)) as unknown as Array<{ notes: AnyRecord[] }>;
      const published = discussions.find((discussion) => discussion.notes[0]!.body === 'Draft on line 3')!;
      expect(published.notes[0]).toMatchObject({ type: 'DiffNote', active: true, position: { head_sha: head, old_line: 3, new_line: 6 } });
    },
    SETUP_TIMEOUT_MS,
  );
});
