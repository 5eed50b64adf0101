import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { SETUP_TIMEOUT_MS, startNotesFixtures, type NotesFixtures, type NotesProject } from '../../../../test-support/notes-fixtures.js';
import type { TestUser } from '../../../../test-support/server.js';

type AnyDiscussion = { id: string; notes: Array<Record<string, any>> };

/**
 * Security lessons rows 19 and 20 (IDOR on notes): every note, discussion, draft and award is
 * reached through its project and merge request, so an id from elsewhere answers 404, even to a
 * Maintainer of the project in the URL, and changes nothing. Then internal notes: who sees them
 * through which call.
 */
describe(`discussions IDOR (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let mine: NotesProject;
  let mineOther: { iid: number };
  let theirs: NotesProject;
  let attacker: TestUser;
  const ids = {} as { note: number; discussion: string; diffDiscussion: string; diffNote: number; award: number; noteAward: number; draft: number; otherMrNote: number; myNote: number; myDiscussion: string; myNoteAward: number };

  beforeAll(async () => {
    fx = await startNotesFixtures();
    mine = await fx.notesProject('idor-mine');
    theirs = await fx.notesProject('idor-theirs');
    attacker = await fx.member(mine.id, 40);
    const root = fx.root;
    // their merge request, in a project the attacker cannot see
    ids.note = (await root.MergeRequestNotes.create(theirs.id, theirs.iid, 'their note')).id as number;
    const thread = (await root.MergeRequestDiscussions.create(theirs.id, theirs.iid, 'their thread')) as unknown as AnyDiscussion;
    ids.discussion = thread.id;
    const diff = (await root.MergeRequestDiscussions.create(theirs.id, theirs.iid, 'their diff thread', {
      position: { ...theirs.refs, positionType: 'text', oldPath: 'lines.txt', newPath: 'lines.txt', newLine: 3 } as never,
    })) as unknown as AnyDiscussion;
    ids.diffDiscussion = diff.id;
    ids.diffNote = diff.notes[0]!.id as number;
    ids.award = (await root.MergeRequestAwardEmojis.award(theirs.id, theirs.iid, 'tada')).id;
    ids.noteAward = (await root.MergeRequestNoteAwardEmojis.award(theirs.id, theirs.iid, ids.note, 'eyes')).id;
    // a draft the attacker cannot see, on their own project's merge request, by someone else
    ids.draft = (await root.MergeRequestDraftNotes.create(mine.id, mine.iid, 'root’s draft')).id;
    // another merge request in the attacker's own project
    await root.Branches.create(mine.id, 'second', 'main');
    await root.Commits.create(mine.id, 'second', 'Second', [{ action: 'create', filePath: 'second.txt', content: '2\n' }]);
    mineOther = { iid: (await root.MergeRequests.create(mine.id, 'second', 'main', 'Second')).iid };
    ids.otherMrNote = (await root.MergeRequestNotes.create(mine.id, mineOther.iid, 'other merge request')).id as number;
    const myThread = (await root.MergeRequestDiscussions.create(mine.id, mine.iid, 'my thread')) as unknown as AnyDiscussion;
    ids.myDiscussion = myThread.id;
    ids.myNote = myThread.notes[0]!.id as number;
    ids.myNoteAward = (await root.MergeRequestNoteAwardEmojis.award(mine.id, mine.iid, ids.myNote, 'rocket')).id;
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  const mr = () => `/projects/${mine.id}/merge_requests/${mine.iid}`;

  it('cannot see the other project at all', async () => {
    expect((await fx.call('GET', `/projects/${theirs.id}/merge_requests/${theirs.iid}/notes/${ids.note}`, { token: attacker.token })).status).toBe(404);
    expect((await fx.call('GET', `/projects/${theirs.id}/merge_requests/${theirs.iid}/discussions`, { token: attacker.token })).status).toBe(404);
  });

  it.each([
    ['GET a note', 'GET', () => `${mr()}/notes/${ids.note}`, undefined],
    ['PUT a note', 'PUT', () => `${mr()}/notes/${ids.note}`, { body: 'owned' }],
    ['DELETE a note', 'DELETE', () => `${mr()}/notes/${ids.note}`, undefined],
    ['GET a discussion', 'GET', () => `${mr()}/discussions/${ids.discussion}`, undefined],
    ['resolve a discussion', 'PUT', () => `${mr()}/discussions/${ids.discussion}?resolved=true`, undefined],
    ['reply to a discussion', 'POST', () => `${mr()}/discussions/${ids.discussion}/notes`, { body: 'owned' }],
    ['GET a discussion note', 'GET', () => `${mr()}/discussions/${ids.diffDiscussion}/notes/${ids.diffNote}`, undefined],
    ['resolve a discussion note', 'PUT', () => `${mr()}/discussions/${ids.diffDiscussion}/notes/${ids.diffNote}`, { resolved: true }],
    ['edit a discussion note', 'PUT', () => `${mr()}/discussions/${ids.diffDiscussion}/notes/${ids.diffNote}`, { body: 'owned' }],
    ['DELETE a discussion note', 'DELETE', () => `${mr()}/discussions/${ids.diffDiscussion}/notes/${ids.diffNote}`, undefined],
    ['a foreign note inside my discussion', 'PUT', () => `${mr()}/discussions/${ids.myDiscussion}/notes/${ids.diffNote}`, { resolved: true }],
    ['GET an award', 'GET', () => `${mr()}/award_emoji/${ids.award}`, undefined],
    ['DELETE an award', 'DELETE', () => `${mr()}/award_emoji/${ids.award}`, undefined],
    ['list a note’s awards', 'GET', () => `${mr()}/notes/${ids.note}/award_emoji`, undefined],
    ['award a foreign note', 'POST', () => `${mr()}/notes/${ids.note}/award_emoji`, { name: 'thumbsdown' }],
    ['a foreign note award under my note', 'DELETE', () => `${mr()}/notes/${ids.myNote}/award_emoji/${ids.noteAward}`, undefined],
    ['my note award under the merge request', 'DELETE', () => `${mr()}/award_emoji/${ids.myNoteAward}`, undefined],
    ['GET someone else’s draft', 'GET', () => `${mr()}/draft_notes/${ids.draft}`, undefined],
    ['edit someone else’s draft (POST, as gitbeaker)', 'POST', () => `${mr()}/draft_notes/${ids.draft}`, { note: 'owned' }],
    ['publish someone else’s draft', 'PUT', () => `${mr()}/draft_notes/${ids.draft}/publish`, undefined],
    ['DELETE someone else’s draft', 'DELETE', () => `${mr()}/draft_notes/${ids.draft}`, undefined],
    ['a note of another merge request of my project', 'PUT', () => `${mr()}/notes/${ids.otherMrNote}`, { body: 'owned' }],
    ['a draft reply to a foreign thread', 'POST', () => `${mr()}/draft_notes`, () => ({ note: 'x', in_reply_to_discussion_id: ids.discussion })],
  ])('%s through my merge request answers 404 (or 400 for the draft reply) and changes nothing', async (_name, method, path, body) => {
    const response = await fx.call(method, path(), { token: attacker.token, body: typeof body === 'function' ? body() : body });
    // a draft names its thread in the body: DraftNotes::CreateService's 400, as for a thread that is not there
    if (path().endsWith('/draft_notes')) expect(response).toMatchObject({ status: 400, body: { message: { base: ['Thread to reply to cannot be found'] } } });
    else expect(response.status).toBe(404);
  });

  it('left everything of theirs as it was', async () => {
    expect(await fx.root.MergeRequestNotes.show(theirs.id, theirs.iid, ids.note)).toMatchObject({ body: 'their note' });
    const thread = (await fx.root.MergeRequestDiscussions.show(theirs.id, theirs.iid, ids.discussion)) as unknown as AnyDiscussion;
    expect(thread.notes).toHaveLength(1);
    expect(thread.notes[0]!.resolved).toBe(false);
    expect((await fx.root.MergeRequestDiscussions.show(theirs.id, theirs.iid, ids.diffDiscussion)) as unknown as AnyDiscussion).toMatchObject({ notes: [{ body: 'their diff thread', resolved: false }] });
    expect(await fx.root.MergeRequestAwardEmojis.all(theirs.id, theirs.iid)).toHaveLength(1);
    expect(await fx.root.MergeRequestNoteAwardEmojis.all(theirs.id, theirs.iid, ids.note)).toHaveLength(1);
    expect(await fx.root.MergeRequestNoteAwardEmojis.all(mine.id, mine.iid, ids.myNote)).toHaveLength(1);
    expect(await fx.root.MergeRequestDraftNotes.show(mine.id, mine.iid, ids.draft)).toMatchObject({ note: 'root’s draft' });
    expect(await fx.root.MergeRequestNotes.show(mine.id, mineOther.iid, ids.otherMrNote)).toMatchObject({ body: 'other merge request' });
  });
});

describe(`internal notes visibility (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let project: NotesProject;
  const users = {} as Record<'stranger' | 'guest' | 'reporter' | 'developer' | 'admin', TestUser>;
  let internalNote: number;
  let internalThread: AnyDiscussion;
  const mr = () => `/projects/${project.id}/merge_requests/${project.iid}`;

  beforeAll(async () => {
    fx = await startNotesFixtures();
    project = await fx.notesProject('internal', { visibility: 'public' });
    users.stranger = await fx.server.createUser();
    users.guest = await fx.member(project.id, 10);
    users.reporter = await fx.member(project.id, 20);
    users.developer = await fx.member(project.id, 30);
    users.admin = await fx.server.createUser({ admin: true });
    internalNote = (await fx.root.MergeRequestNotes.create(project.id, project.iid, 'internal note', { internal: true })).id as number;
    expect(await fx.root.MergeRequestNotes.show(project.id, project.iid, internalNote)).toMatchObject({ internal: true, confidential: true });
    internalThread = (await fx.call('POST', `${mr()}/discussions`, { body: { body: 'internal thread', internal: true } })).body;
    await fx.root.MergeRequestNotes.create(project.id, project.iid, 'public note');
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  const roles = [
    ['anonymous', false, () => null],
    ['a signed-in stranger', false, () => users.stranger.token],
    ['a Guest', false, () => users.guest.token],
    ['a Reporter', true, () => users.reporter.token],
    ['a Developer', true, () => users.developer.token],
    ['an administrator', true, () => users.admin.token],
  ] as const;

  it.each(roles)('%s sees internal notes: %s, through every read', async (_name, sees, token) => {
    const notes = await fx.call('GET', `${mr()}/notes`, { token: token() });
    const bodies = (notes.body as Array<{ body: string }>).map((note) => note.body);
    expect(bodies).toContain('public note');
    expect(bodies.includes('internal note')).toBe(sees);
    expect(bodies.includes('internal thread')).toBe(sees);
    expect(Number(notes.headers.get('x-total'))).toBe(bodies.length);

    const discussions = (await fx.call('GET', `${mr()}/discussions`, { token: token() })).body as AnyDiscussion[];
    expect(discussions.some((discussion) => discussion.id === internalThread.id)).toBe(sees);
    const keyset = (await fx.call('GET', `${mr()}/discussions?pagination=keyset`, { token: token() })).body as AnyDiscussion[];
    expect(keyset.some((discussion) => discussion.id === internalThread.id)).toBe(sees);

    const status = sees ? 200 : 404;
    expect((await fx.call('GET', `${mr()}/notes/${internalNote}`, { token: token() })).status).toBe(status);
    expect((await fx.call('GET', `${mr()}/discussions/${internalThread.id}`, { token: token() })).status).toBe(status);
    expect((await fx.call('GET', `${mr()}/discussions/${internalThread.id}/notes/${internalThread.notes[0]!.id}`, { token: token() })).status).toBe(status);
    expect((await fx.call('GET', `${mr()}/notes/${internalNote}/award_emoji`, { token: token() })).status).toBe(status);
  });

  it.each(roles.filter(([name]) => name !== 'anonymous'))('%s may reply to an internal thread: %s', async (_name, sees, token) => {
    const reply = await fx.call('POST', `${mr()}/discussions/${internalThread.id}/notes`, { token: token(), body: { body: 'reply' } });
    expect(reply.status).toBe(sees ? 201 : 404);
    if (sees) expect(reply.body).toMatchObject({ internal: true });
  });

  it.each([
    ['a signed-in stranger', 403, () => users.stranger.token],
    ['a Guest', 403, () => users.guest.token],
    ['a Reporter', 201, () => users.reporter.token],
  ])('%s creating an internal note gets %d', async (_name, status, token) => {
    expect((await fx.call('POST', `${mr()}/notes`, { token: token(), body: { body: 'new internal', internal: true } })).status).toBe(status);
  });
});
