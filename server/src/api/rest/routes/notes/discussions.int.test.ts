import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { SETUP_TIMEOUT_MS, startNotesFixtures, type Client, type NotesFixtures, type NotesProject } from '../../../../test-support/notes-fixtures.js';
import type { TestUser } from '../../../../test-support/server.js';

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

type AnyDiscussion = { id: string; individual_note: boolean; notes: Array<Record<string, any>> };

/** Threads through @gitbeaker/rest: replies, resolution, diff positions (multipart), keyset pages, locks. */
describe(`merge request discussions (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let project: NotesProject;
  let developer: { user: TestUser; api: Client };
  let reporter: { user: TestUser; api: Client };
  const base = () => `/projects/${project.id}/merge_requests/${project.iid}/discussions`;
  const text = (extra: Record<string, unknown>) => ({ ...project.refs, positionType: 'text', oldPath: 'lines.txt', newPath: 'lines.txt', ...extra });

  beforeAll(async () => {
    fx = await startNotesFixtures();
    project = await fx.notesProject('discussions', { visibility: 'public' });
    developer = await fx.memberClient(project.id, 30);
    reporter = await fx.memberClient(project.id, 20);
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  it('starts a thread, replies, and resolves it with resolve() and editNote()', async () => {
    const thread = (await reporter.api.MergeRequestDiscussions.create(project.id, project.iid, 'A question')) as unknown as AnyDiscussion;
    expect(thread.id).toMatch(/^[0-9a-f]{40}$/);
    expect(thread).toMatchObject({ individual_note: false, notes: [{ type: 'DiscussionNote', body: 'A question', resolvable: true, resolved: false, resolved_by: null }] });

    const reply = await developer.api.MergeRequestDiscussions.addNote(project.id, project.iid, thread.id, 'An answer');
    expect(reply).toMatchObject({ type: 'DiscussionNote', body: 'An answer', author: { id: developer.user.id } });

    const resolved = (await developer.api.MergeRequestDiscussions.resolve(project.id, project.iid, thread.id, true)) as unknown as AnyDiscussion;
    expect(resolved.notes.map((note) => [note.resolved, note.resolved_by?.id])).toEqual([
      [true, developer.user.id],
      [true, developer.user.id],
    ]);
    // a reply to a resolved thread is born resolved
    const late = await developer.api.MergeRequestDiscussions.addNote(project.id, project.iid, thread.id, 'Late');
    expect(late).toMatchObject({ resolved: true });

    await developer.api.MergeRequestDiscussions.resolve(project.id, project.iid, thread.id, false);
    const shown = (await fx.root.MergeRequestDiscussions.show(project.id, project.iid, thread.id)) as unknown as AnyDiscussion;
    expect(shown.notes.every((note) => note.resolved === false && note.resolved_by === null && note.resolved_at === null)).toBe(true);

    const first = shown.notes[0]!;
    const one = await developer.api.MergeRequestDiscussions.editNote(project.id, project.iid, thread.id, first.id as number, { resolved: true });
    expect(one).toMatchObject({ id: first.id, resolved: true });
    const body = await reporter.api.MergeRequestDiscussions.editNote(project.id, project.iid, thread.id, first.id as number, { body: 'A better question' });
    expect(body).toMatchObject({ body: 'A better question' });
  });

  it('refuses to resolve for a Reporter who did not open the merge request (403)', async () => {
    const thread = (await reporter.api.MergeRequestDiscussions.create(project.id, project.iid, 'Mine')) as unknown as AnyDiscussion;
    expect((await fx.call('PUT', `${base()}/${thread.id}?resolved=true`, { token: reporter.user.token })).status).toBe(403);
    expect((await fx.call('PUT', `${base()}/${thread.id}`, { token: developer.user.token })).status).toBe(400);
  });

  it('turns an individual note into a thread when someone replies (GitLab, merge requests)', async () => {
    const note = await reporter.api.MergeRequestNotes.create(project.id, project.iid, 'Plain comment');
    const discussions = (await fx.root.MergeRequestDiscussions.all(project.id, project.iid)) as unknown as AnyDiscussion[];
    const individual = discussions.find((discussion) => discussion.notes[0]!.id === note.id)!;
    expect(individual).toMatchObject({ individual_note: true, notes: [{ type: null, resolvable: false }] });
    // an individual note cannot be resolved
    expect((await fx.call('PUT', `${base()}/${individual.id}?resolved=true`, { token: developer.user.token })).status).toBe(403);

    const reply = await developer.api.MergeRequestDiscussions.addNote(project.id, project.iid, individual.id, 'Reply');
    expect(reply).toMatchObject({ type: 'DiscussionNote' });
    const thread = (await fx.root.MergeRequestDiscussions.show(project.id, project.iid, individual.id)) as unknown as AnyDiscussion;
    expect(thread).toMatchObject({ individual_note: false, notes: [{ id: note.id, type: 'DiscussionNote', resolvable: true }, { type: 'DiscussionNote' }] });
  });

  it('takes no replies on a system note', async () => {
    await fx.root.MergeRequests.edit(project.id, project.iid, { title: 'Feature (renamed)' });
    const discussions = (await fx.root.MergeRequestDiscussions.all(project.id, project.iid)) as unknown as AnyDiscussion[];
    const system = discussions.find((discussion) => discussion.notes[0]!.system)!;
    expect(system.individual_note).toBe(true);
    const reply = await fx.call('POST', `${base()}/${system.id}/notes`, { body: { body: 'no' } });
    expect(reply).toMatchObject({ status: 400, body: { message: '400 Bad request - Discussion is an individual note.' } });
    expect((await fx.call('PUT', `/projects/${project.id}/merge_requests/${project.iid}/notes/${system.notes[0]!.id}`, { body: { body: 'rewrite history' } })).status).toBe(403);
  });

  describe('diff threads (gitbeaker sends the position as multipart form data)', () => {
    const code = (oldPosition: number, newPosition: number, path = 'lines.txt') => `${sha1(path)}_${oldPosition}_${newPosition}`;

    it.each([
      ['an added line (new_line only)', { newLine: 3 }, { old_line: null, new_line: 3 }],
      ['a removed line (old_line only)', { oldLine: 2 }, { old_line: 2, new_line: null }],
      ['an unchanged line in a hunk (both)', { oldLine: 4, newLine: 5 }, { old_line: 4, new_line: 5 }],
      ['an unchanged line outside the hunks (unfolded)', { oldLine: 10, newLine: 11 }, { old_line: 10, new_line: 11 }],
    ])('comments on %s', async (_name, lines, expected) => {
      const thread = (await developer.api.MergeRequestDiscussions.create(project.id, project.iid, 'On a line', { position: text(lines) as never })) as unknown as AnyDiscussion;
      const note = thread.notes[0]!;
      expect(note).toMatchObject({ type: 'DiffNote', resolvable: true, commit_id: null, suggestions: [] });
      expect(note.position).toEqual({
        base_sha: project.refs.baseSha,
        start_sha: project.refs.startSha,
        head_sha: project.refs.headSha,
        old_path: 'lines.txt',
        new_path: 'lines.txt',
        position_type: 'text',
        ...expected,
        line_range: null,
      });
    });

    it('stores a line range with GitLab line codes and types', async () => {
      const thread = (await developer.api.MergeRequestDiscussions.create(project.id, project.iid, 'On lines 2-4', {
        position: text({ newLine: 4, oldLine: 3, lineRange: { start: { lineCode: 'ignored', type: 'new', newLine: 2 }, end: { lineCode: 'ignored', type: 'old', oldLine: 3, newLine: 4 } } }) as never,
      })) as unknown as AnyDiscussion;
      expect(thread.notes[0]!.position.line_range).toEqual({
        start: { line_code: code(3, 2), type: 'new', old_line: null, new_line: 2 },
        end: { line_code: code(3, 4), type: null, old_line: 3, new_line: 4 },
      });
      const reply = await fx.root.MergeRequestDiscussions.addNote(project.id, project.iid, thread.id, 'Agreed');
      expect(reply).toMatchObject({ type: 'DiffNote', position: { new_line: 4, line_range: { start: { new_line: 2 } } } });
    });

    it('comments on an image position and on a whole file', async () => {
      const image = (await developer.api.MergeRequestDiscussions.create(project.id, project.iid, 'Pin', {
        position: { ...project.refs, positionType: 'image', oldPath: 'pic.png', newPath: 'pic.png', width: 100, height: 80, x: 10, y: 20 } as never,
      })) as unknown as AnyDiscussion;
      expect(image.notes[0]!.position).toEqual({ ...refsSnake(project), old_path: 'pic.png', new_path: 'pic.png', position_type: 'image', width: 100, height: 80, x: 10, y: 20 });
      const file = (await developer.api.MergeRequestDiscussions.create(project.id, project.iid, 'The file', {
        position: { ...project.refs, positionType: 'file', newPath: 'added.txt' } as never,
      })) as unknown as AnyDiscussion;
      expect(file.notes[0]!.position).toEqual({ ...refsSnake(project), old_path: 'added.txt', new_path: 'added.txt', position_type: 'file' });
    });

    it.each([
      ['a line the diff does not have', () => text({ newLine: 400 }), 'Note {:line_code=>["can\'t be blank", "must be a valid line code"]}'],
      ['an added line named with a wrong old line', () => text({ oldLine: 7, newLine: 3 }), 'Note {:line_code=>["can\'t be blank", "must be a valid line code"]}'],
      ['a file outside the diff', () => text({ oldPath: 'README.md', newPath: 'README.md', newLine: 1 }), 'Note {:line_code=>["can\'t be blank", "must be a valid line code"]}'],
      ['SHAs of no version of the merge request', () => text({ headSha: project.refs.baseSha, newLine: 3 }), 'Note {:position=>["does not match any version of this merge request"]}'],
      ['a range that runs backwards', () => text({ newLine: 3, lineRange: { start: { newLine: 3 }, end: { newLine: 2 } } }), 'Note {:line_range=>["must start before it ends"]}'],
      ['an image file that is not in the diff', () => ({ ...project.refs, positionType: 'image', newPath: 'nope.png', width: 1, height: 1, x: 0, y: 0 }), 'Note {:position=>["is not a file of this version of the diff"]}'],
    ])('refuses %s with a 400 and writes nothing', async (_name, position, message) => {
      const before = ((await fx.root.MergeRequestDiscussions.all(project.id, project.iid)) as unknown[]).length;
      const error = await developer.api.MergeRequestDiscussions.create(project.id, project.iid, 'Nope', { position: position() as never }).catch((caught: unknown) => caught);
      expect((error as { cause?: { response?: { status?: number } } }).cause?.response?.status).toBe(400);
      expect((error as { cause?: { description?: string } }).cause?.description).toBe(`400 Bad request - ${message}`);
      expect(((await fx.root.MergeRequestDiscussions.all(project.id, project.iid)) as unknown[]).length).toBe(before);
    });

    it('keeps accepting positions on an older version after a push', async () => {
      await fx.root.Commits.create(project.id, 'feature', 'More', [{ action: 'create', filePath: 'more.txt', content: 'more\n' }]);
      const deadline = Date.now() + 20_000;
      while ((await fx.root.MergeRequests.allDiffVersions(project.id, project.iid)).length < 2) {
        if (Date.now() > deadline) throw new Error('no second version');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const thread = (await developer.api.MergeRequestDiscussions.create(project.id, project.iid, 'On version 1', { position: text({ newLine: 3 }) as never })) as unknown as AnyDiscussion;
      expect(thread.notes[0]!.position.head_sha).toBe(project.refs.headSha);
    });
  });
});

describe(`discussion pages and locks (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let project: NotesProject;

  beforeAll(async () => {
    fx = await startNotesFixtures();
    project = await fx.notesProject('discussion-pages', { visibility: 'public' });
    for (let i = 1; i <= 7; i++) await fx.root.MergeRequestDiscussions.create(project.id, project.iid, `thread ${i}`);
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  const bodies = (discussions: AnyDiscussion[]) => discussions.map((discussion) => discussion.notes[0]!.body);

  it('pages by keyset: a Link to the next page, none after the last, no totals', async () => {
    const base = `/projects/${project.id}/merge_requests/${project.iid}/discussions`;
    const first = await fx.call('GET', `${base}?pagination=keyset&per_page=3`);
    expect(bodies(first.body)).toEqual(['thread 1', 'thread 2', 'thread 3']);
    expect(first.headers.get('x-total')).toBeNull();
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')![1]!;
    expect(next).toContain('cursor=');
    const second = await fx.call('GET', next.slice(next.indexOf('/api/v4') + '/api/v4'.length));
    expect(bodies(second.body)).toEqual(['thread 4', 'thread 5', 'thread 6']);
    const url = /<([^>]+)>; rel="next"/.exec(second.headers.get('link') ?? '')![1]!;
    const last = await fx.call('GET', url.slice(url.indexOf('/api/v4') + '/api/v4'.length));
    expect(bodies(last.body)).toEqual(['thread 7']);
    expect(last.headers.get('link')).toBeNull();
    expect((await fx.call('GET', `${base}?pagination=keyset&cursor=garbage`)).status).toBe(400);
  });

  it('gitbeaker follows the keyset and the offset pages to the end', async () => {
    expect(bodies((await fx.root.MergeRequestDiscussions.all(project.id, project.iid, { pagination: 'keyset', perPage: 2 } as never)) as unknown as AnyDiscussion[])).toHaveLength(7);
    expect(bodies((await fx.root.MergeRequestDiscussions.all(project.id, project.iid, { perPage: 2 })) as unknown as AnyDiscussion[])).toHaveLength(7);
  });

  it('counts unresolved threads and user notes for other domains (DISCUSSIONS_NOT_RESOLVED, user_notes_count)', async () => {
    const stats = fx.server.app.services.discussionStats;
    const id = project.mergeRequestId;
    const before = (await stats.unresolvedThreadCounts([id])).get(id)!;
    const thread = (await fx.root.MergeRequestDiscussions.create(project.id, project.iid, 'to resolve')) as unknown as AnyDiscussion;
    expect((await stats.unresolvedThreadCounts([id])).get(id)).toBe(before + 1);
    await fx.root.MergeRequestDiscussions.resolve(project.id, project.iid, thread.id, true);
    expect((await stats.unresolvedThreadCounts([id])).get(id)).toBe(before);
    await fx.call('POST', `/projects/${project.id}/merge_requests/${project.iid}/notes`, { body: { body: 'internal', internal: true } });
    const everyone = (await stats.userNotesCounts([id], { includeInternal: false })).get(id)!;
    expect((await stats.userNotesCounts([id], { includeInternal: true })).get(id)).toBe(everyone + 1);
    // the entity shows the count that reveals no internal note
    expect((await fx.root.MergeRequests.show(project.id, project.iid)).user_notes_count).toBe(everyone);
  });

  it('blocks merging with DISCUSSIONS_NOT_RESOLVED while a thread is open, when the project asks for it', async () => {
    await fx.root.Projects.edit(project.id, { onlyAllowMergeIfAllDiscussionsAreResolved: true });
    const thread = (await fx.root.MergeRequestDiscussions.create(project.id, project.iid, 'must resolve')) as unknown as AnyDiscussion;
    const blockingResolved = async () => (await fx.call('GET', `/projects/${project.id}/merge_requests/${project.iid}`)).body.blocking_discussions_resolved;
    expect(await blockingResolved()).toBe(false);
    await fx.root.MergeRequestDiscussions.resolve(project.id, project.iid, thread.id, true);
    const all = (await fx.call<AnyDiscussion[]>('GET', `/projects/${project.id}/merge_requests/${project.iid}/discussions?per_page=100`)).body;
    for (const other of all.filter((d) => !d.individual_note && d.notes.some((n) => n.resolvable && !n.resolved))) {
      await fx.root.MergeRequestDiscussions.resolve(project.id, project.iid, other.id, true);
    }
    expect(await blockingResolved()).toBe(true);
    await fx.root.Projects.edit(project.id, { onlyAllowMergeIfAllDiscussionsAreResolved: false });
  });

  it('a locked discussion takes comments from project members only', async () => {
    const stranger = await fx.server.createUser();
    const guest = await fx.member(project.id, 10);
    const base = `/projects/${project.id}/merge_requests/${project.iid}`;
    const thread = (await fx.root.MergeRequestDiscussions.create(project.id, project.iid, 'before the lock')) as unknown as AnyDiscussion;
    const strangersNote = await fx.call('POST', `${base}/notes`, { token: stranger.token, body: { body: 'stranger, unlocked' } });
    expect(strangersNote.status).toBe(201);

    await fx.root.MergeRequests.edit(project.id, project.iid, { discussionLocked: true });
    expect((await fx.call('POST', `${base}/notes`, { token: stranger.token, body: { body: 'stranger' } })).status).toBe(403);
    expect((await fx.call('POST', `${base}/discussions/${thread.id}/notes`, { token: stranger.token, body: { body: 'stranger reply' } })).status).toBe(403);
    expect((await fx.call('PUT', `${base}/notes/${strangersNote.body.id}`, { token: stranger.token, body: { body: 'edit' } })).status).toBe(403);
    expect((await fx.call('POST', `${base}/notes`, { token: guest.token, body: { body: 'guest' } })).status).toBe(201);
    expect((await fx.call('GET', `${base}/notes`, { token: stranger.token })).status).toBe(200);
    await fx.root.MergeRequests.edit(project.id, project.iid, { discussionLocked: false });
  });
});

function refsSnake(project: NotesProject) {
  return { base_sha: project.refs.baseSha, start_sha: project.refs.startSha, head_sha: project.refs.headSha };
}
