import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { LINES, SETUP_TIMEOUT_MS, startNotesFixtures, type NotesFixtures } from '../../../../test-support/notes-fixtures.js';
import type { GitCli } from '../../../../test-support/server.js';

type AnyNote = Record<string, any>;
type AnyDiscussion = { id: string; notes: AnyNote[] };

/** The feature branch of the notes fixtures: line 2 changed, a line inserted after it, line 30 changed. */
const FEATURE_LINES = (() => {
  const changed = LINES.map((line, i) => (i === 1 ? 'line 2 changed' : i === 29 ? 'line 30 changed' : line));
  changed.splice(2, 0, 'inserted after 2');
  return changed;
})();

/**
 * Diff threads after real git pushes (domains/notes/outdated-discussions.service.ts): they
 * follow shifted lines onto the new version, become outdated when their line changes (their
 * original lines still served by outdated_line_change_path), are resolved by the push when
 * the project says so (DISCUSSIONS_NOT_RESOLVED follows), and survive a force push.
 */
describe(`outdated diff discussions (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let git: GitCli;

  beforeAll(async () => {
    fx = await startNotesFixtures();
    git = fx.rootGit();
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  /** A notes project cloned into its own work tree, on the feature branch. */
  async function scenario(name: string) {
    const project = await fx.notesProject(name);
    const dir = `work-${name}`;
    await git.git(['clone', '-q', git.repoUrl(project.path), dir]);
    await git.git(['checkout', '-q', 'feature'], { cwd: dir });
    const sh = (args: string[]) => git.git(args, { cwd: dir });
    let versions = 1;
    return {
      project,
      sh,
      /** Commits lines.txt with these lines, pushes feature, and waits until the threads were traced. */
      async push(lines: string[], options: { force?: boolean } = {}) {
        writeFileSync(join(git.dir, dir, 'lines.txt'), `${lines.join('\n')}\n`);
        await sh(['commit', '-q', '-a', '-m', 'Push']);
        const head = (await sh(['rev-parse', 'HEAD'])).stdout.trim();
        const jobsBefore = await fx.tracingJobs(project.mergeRequestId);
        await sh(['push', '-q', ...(options.force ? ['--force'] : []), git.repoUrl(project.path), 'feature']);
        versions++;
        await eventually(async () => (await fx.root.MergeRequests.allDiffVersions(project.id, project.iid)).length === versions);
        await fx.tracingDone(project.mergeRequestId, jobsBefore);
        return head;
      },
      async thread(body: string, lines: { oldLine?: number; newLine?: number }) {
        const [latest] = await fx.root.MergeRequests.allDiffVersions(project.id, project.iid);
        const refs = { baseSha: latest!.base_commit_sha, startSha: latest!.start_commit_sha, headSha: latest!.head_commit_sha };
        const position = { ...refs, positionType: 'text', oldPath: 'lines.txt', newPath: 'lines.txt', ...lines };
        return (await fx.root.MergeRequestDiscussions.create(project.id, project.iid, body, { position: position as never })) as unknown as AnyDiscussion;
      },
      async show(id: string) {
        return (await fx.root.MergeRequestDiscussions.show(project.id, project.iid, id)) as unknown as AnyDiscussion;
      },
    };
  }

  const webGet = (path: string, token: string | null = fx.server.root.token) => fetch(`${fx.server.url}${path}`, { headers: token ? { 'private-token': token } : {} });

  describe('with resolve_outdated_diff_discussions off (the default)', () => {
    let s: Awaited<ReturnType<typeof scenario>>;
    let added: AnyDiscussion;
    let unchanged: AnyDiscussion;

    beforeAll(async () => {
      s = await scenario('outdated-off');
      added = await s.thread('On the inserted line', { newLine: 3 });
      unchanged = await s.thread('On line 3', { oldLine: 3, newLine: 4 });
    }, SETUP_TIMEOUT_MS);

    it('exposes the setting, false by default', async () => {
      expect(await fx.root.Projects.show(s.project.id)).toMatchObject({ resolve_outdated_diff_discussions: false });
      expect(added.notes[0]).toMatchObject({ active: true, resolved_by_push: false, outdated_line_change_path: null, original_position: added.notes[0]!.position });
    });

    it('moves threads onto the new version when a push shifts their lines', async () => {
      const head = await s.push(['top 1', 'top 2', ...FEATURE_LINES]);
      const moved = (await s.show(added.id)).notes[0]!;
      expect(moved.position).toMatchObject({ head_sha: head, old_line: null, new_line: 5 });
      expect(moved).toMatchObject({ active: true, resolved: false, original_position: added.notes[0]!.position });
      const movedUnchanged = (await s.show(unchanged.id)).notes[0]!;
      expect(movedUnchanged.position).toMatchObject({ head_sha: head, old_line: 3, new_line: 6 });
      // a reply to a moved thread carries the moved position
      const reply = (await fx.root.MergeRequestDiscussions.addNote(s.project.id, s.project.iid, added.id, 'Still here')) as AnyNote;
      expect(reply.position).toMatchObject({ head_sha: head, new_line: 5 });
    });

    it('makes a thread outdated when a push changes its line, keeps it unresolved, and still serves its original lines', async () => {
      const before = (await s.show(added.id)).notes[0]!.position;
      const edited = ['top 1', 'top 2', ...FEATURE_LINES.map((line) => (line === 'inserted after 2' ? 'inserted after 2, edited' : line))];
      const head = await s.push(edited);
      const thread = await s.show(added.id);
      for (const note of thread.notes) {
        expect(note).toMatchObject({ active: false, resolved: false, resolved_by_push: false });
        // the position stays on the version the line was last seen on
        expect(note.position).toEqual(before);
        expect(note.original_position).toEqual(added.notes[0]!.position);
      }
      const path = thread.notes[0]!.outdated_line_change_path as string;
      expect(path).toBe(`/${s.project.path}/notes/${thread.notes[0]!.id}/outdated_line_change`);
      const response = await webGet(path);
      expect(response.status).toBe(200);
      const lines = (await response.json()) as Array<Record<string, unknown>>;
      expect(lines.map((line) => line.text)).toContain('-inserted after 2');
      expect(lines.map((line) => line.text)).toContain('+inserted after 2, edited');
      expect(lines.find((line) => line.text === '-inserted after 2')).toMatchObject({ type: 'old', old_line: 5, new_line: null, rich_text: 'inserted after 2' });
      // the thread on line 3 was not touched: it moved on
      expect((await s.show(unchanged.id)).notes[0]).toMatchObject({ active: true, position: { head_sha: head, old_line: 3, new_line: 6 } });
      // an active thread has no outdated lines; what the caller may not read is a 404
      const activeNote = (await s.show(unchanged.id)).notes[0]!;
      expect(await (await webGet(`/${s.project.path}/notes/${activeNote.id}/outdated_line_change`)).json()).toEqual([]);
      // the job is idempotent: run again, it finds every thread traced already
      expect(await fx.server.app.services.outdatedDiscussions.run({ mergeRequestId: s.project.mergeRequestId })).toEqual({ moved: 0, outdated: 0, draftsMoved: 0 });
      expect((await webGet(path, null)).status).toBe(404);
      expect((await webGet(`/${s.project.path}/notes/999999999/outdated_line_change`)).status).toBe(404);
    });
  });

  it('resolves a thread a push outdates when the project says so, and DISCUSSIONS_NOT_RESOLVED follows', async () => {
    const s = await scenario('outdated-on');
    const settings = await fx.root.Projects.edit(s.project.id, { resolveOutdatedDiffDiscussions: true, onlyAllowMergeIfAllDiscussionsAreResolved: true });
    expect(settings).toMatchObject({ resolve_outdated_diff_discussions: true });
    const thread = await s.thread('On line 30', { newLine: 31 });
    const kept = await s.thread('On line 2', { newLine: 2 });
    await fx.root.MergeRequestDiscussions.resolve(s.project.id, s.project.iid, kept.id, true);
    const status = async () => (await fx.root.MergeRequests.show(s.project.id, s.project.iid)).detailed_merge_status;
    await eventually(async () => (await status()) === 'discussions_not_resolved');

    await s.push(FEATURE_LINES.map((line) => (line === 'line 30 changed' ? 'line 30 changed again' : line)));
    const resolved = await s.show(thread.id);
    expect(resolved.notes[0]).toMatchObject({ active: false, resolved: true, resolved_by_push: true, resolved_by: { username: 'root' } });
    // a thread resolved by hand and left active keeps its resolution and is not "resolved by push"
    expect((await s.show(kept.id)).notes[0]).toMatchObject({ active: true, resolved: true, resolved_by_push: false });
    await eventually(async () => (await status()) === 'mergeable');
  });

  it('traces threads across a force push that rewrites the branch', async () => {
    const s = await scenario('outdated-force');
    const inserted = await s.thread('On the inserted line', { newLine: 3 });
    const line30 = await s.thread('On line 30', { newLine: 31 });
    // The rewritten branch keeps only the change to line 30.
    await s.sh(['reset', '-q', '--hard', 'origin/main']);
    const head = await s.push(LINES.map((line, i) => (i === 29 ? 'line 30 changed' : line)), { force: true });
    expect((await s.show(inserted.id)).notes[0]).toMatchObject({ active: false, resolved: false, position: inserted.notes[0]!.position });
    expect((await s.show(line30.id)).notes[0]).toMatchObject({ active: true, position: { head_sha: head, old_line: null, new_line: 30 } });
  });
});
