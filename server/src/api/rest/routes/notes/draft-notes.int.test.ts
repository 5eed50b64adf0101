import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { SETUP_TIMEOUT_MS, startNotesFixtures, type Client, type NotesFixtures, type NotesProject } from '../../../../test-support/notes-fixtures.js';
import type { TestUser } from '../../../../test-support/server.js';

type AnyDiscussion = { id: string; individual_note: boolean; notes: Array<Record<string, any>> };

/** Draft notes of a review through @gitbeaker/rest: CRUD, POST edits, publish one or all, author-only visibility. */
describe(`merge request draft notes (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let project: NotesProject;
  let reviewer: { user: TestUser; api: Client };
  let other: { user: TestUser; api: Client };
  const base = () => `/projects/${project.id}/merge_requests/${project.iid}/draft_notes`;
  const discussions = async () => (await fx.root.MergeRequestDiscussions.all(project.id, project.iid)) as unknown as AnyDiscussion[];

  beforeAll(async () => {
    fx = await startNotesFixtures();
    project = await fx.notesProject('drafts');
    reviewer = await fx.memberClient(project.id, 30);
    other = await fx.memberClient(project.id, 40);
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  it('creates, shows, edits (gitbeaker edits with POST) and deletes a draft', async () => {
    const draft = await reviewer.api.MergeRequestDraftNotes.create(project.id, project.iid, 'Draft text');
    expect(draft).toEqual({
      id: draft.id,
      author_id: reviewer.user.id,
      merge_request_id: project.mergeRequestId,
      resolve_discussion: false,
      discussion_id: null,
      note: 'Draft text',
      commit_id: null,
      line_code: null,
      position: {},
    });
    const edited = await reviewer.api.MergeRequestDraftNotes.edit(project.id, project.iid, draft.id, { note: 'Better draft' });
    expect(edited).toMatchObject({ id: draft.id, note: 'Better draft' });
    expect(await reviewer.api.MergeRequestDraftNotes.show(project.id, project.iid, draft.id)).toMatchObject({ note: 'Better draft' });
    expect(await fx.call('PUT', `${base()}/${draft.id}`, { token: reviewer.user.token, body: {} })).toMatchObject({ status: 400, body: { message: '400 Bad request - Missing params to modify' } });
    await reviewer.api.MergeRequestDraftNotes.remove(project.id, project.iid, draft.id);
    expect(await reviewer.api.MergeRequestDraftNotes.all(project.id, project.iid)).toEqual([]);
  });

  it('is visible to its author only: 404 for another member and for an administrator', async () => {
    const draft = await reviewer.api.MergeRequestDraftNotes.create(project.id, project.iid, 'Secret draft');
    for (const token of [other.user.token, fx.server.root.token]) {
      expect((await fx.call('GET', `${base()}/${draft.id}`, { token })).status).toBe(404);
      expect((await fx.call('PUT', `${base()}/${draft.id}`, { token, body: { note: 'x' } })).status).toBe(404);
      expect((await fx.call('PUT', `${base()}/${draft.id}/publish`, { token })).status).toBe(404);
      expect((await fx.call('DELETE', `${base()}/${draft.id}`, { token })).status).toBe(404);
      expect((await fx.call('GET', base(), { token })).body).toEqual([]);
    }
    expect((await fx.call('GET', base(), { token: null })).status).toBe(401);
    // and it is nowhere in the public notes until published
    const notes = (await fx.root.MergeRequestNotes.all(project.id, project.iid)) as Array<{ body: string }>;
    expect(notes.some((note) => note.body === 'Secret draft')).toBe(false);
    await reviewer.api.MergeRequestDraftNotes.remove(project.id, project.iid, draft.id);
  });

  it('publishes one draft as a new thread (PUT …/publish answers 204)', async () => {
    const draft = await reviewer.api.MergeRequestDraftNotes.create(project.id, project.iid, 'Publish me');
    const response = await fx.call('PUT', `${base()}/${draft.id}/publish`, { token: reviewer.user.token });
    expect(response.status).toBe(204);
    const published = (await discussions()).find((discussion) => discussion.notes[0]!.body === 'Publish me')!;
    expect(published).toMatchObject({ individual_note: false, notes: [{ type: 'DiscussionNote', author: { id: reviewer.user.id } }] });
    expect(await reviewer.api.MergeRequestDraftNotes.all(project.id, project.iid)).toEqual([]);
  });

  it('bulk-publishes a review: a diff comment, and a reply that resolves its thread', async () => {
    const thread = (await other.api.MergeRequestDiscussions.create(project.id, project.iid, 'Please fix')) as unknown as AnyDiscussion;
    const position = { ...project.refs, positionType: 'text', oldPath: 'lines.txt', newPath: 'lines.txt', newLine: 3 };
    const onDiff = await reviewer.api.MergeRequestDraftNotes.create(project.id, project.iid, 'On line 3', { position: position as never });
    expect(onDiff).toMatchObject({ line_code: expect.stringMatching(/^[0-9a-f]{40}_3_3$/), position: { position_type: 'text', new_line: 3, old_line: null } });
    const reply = await reviewer.api.MergeRequestDraftNotes.create(project.id, project.iid, 'Fixed', { inReplyToDiscussionId: thread.id as never, resolveDiscussion: true });
    expect(reply).toMatchObject({ discussion_id: thread.id, resolve_discussion: true });

    await reviewer.api.MergeRequestDraftNotes.publishBulk(project.id, project.iid);
    const all = await discussions();
    expect(all.find((discussion) => discussion.notes[0]!.body === 'On line 3')).toMatchObject({ notes: [{ type: 'DiffNote', position: { new_line: 3 } }] });
    const resolved = all.find((discussion) => discussion.id === thread.id)!;
    expect(resolved.notes.map((note) => [note.body, note.resolved])).toEqual([
      ['Please fix', true],
      ['Fixed', true],
    ]);
    expect(await reviewer.api.MergeRequestDraftNotes.all(project.id, project.iid)).toEqual([]);
  });

  it('bulk-publishes all or nothing: a reply whose thread was deleted since stops the whole review', async () => {
    const kept = (await other.api.MergeRequestDiscussions.create(project.id, project.iid, 'Kept thread')) as unknown as AnyDiscussion;
    const doomed = (await other.api.MergeRequestDiscussions.create(project.id, project.iid, 'Doomed thread')) as unknown as AnyDiscussion;
    await reviewer.api.MergeRequestDraftNotes.create(project.id, project.iid, 'New thread in review');
    await reviewer.api.MergeRequestDraftNotes.create(project.id, project.iid, 'Reply to kept', { inReplyToDiscussionId: kept.id as never });
    const toDoomed = await reviewer.api.MergeRequestDraftNotes.create(project.id, project.iid, 'Reply to doomed', { inReplyToDiscussionId: doomed.id as never });
    await fx.root.MergeRequestNotes.remove(project.id, project.iid, doomed.notes[0]!.id as number);

    expect(await fx.call('POST', `${base()}/bulk_publish`, { token: reviewer.user.token })).toMatchObject({
      status: 400,
      body: { message: { base: ['Thread to reply to cannot be found'] } },
    });
    const bodies = async () => (await discussions()).flatMap((discussion) => discussion.notes.map((note) => note.body as string));
    expect(await bodies()).not.toEqual(expect.arrayContaining(['New thread in review']));
    expect(await bodies()).not.toEqual(expect.arrayContaining(['Reply to kept']));
    expect(await reviewer.api.MergeRequestDraftNotes.all(project.id, project.iid)).toHaveLength(3);

    // Without the orphan, every draft goes out in the one publish: a new thread and a reply.
    await reviewer.api.MergeRequestDraftNotes.remove(project.id, project.iid, toDoomed.id);
    expect((await fx.call('POST', `${base()}/bulk_publish`, { token: reviewer.user.token })).status).toBe(204);
    const all = await discussions();
    expect(all.find((discussion) => discussion.id === kept.id)!.notes.map((note) => note.body)).toEqual(['Kept thread', 'Reply to kept']);
    expect(all.some((discussion) => discussion.notes[0]!.body === 'New thread in review')).toBe(true);
    expect(await reviewer.api.MergeRequestDraftNotes.all(project.id, project.iid)).toEqual([]);
  });

  it("publishes the review's summary as a plain comment, not a thread to resolve", async () => {
    await reviewer.api.MergeRequestDraftNotes.create(project.id, project.iid, 'A point in the review');
    expect((await fx.call('POST', `${base()}/bulk_publish`, { token: reviewer.user.token, body: { note: 'Looks good overall' } })).status).toBe(204);
    const summary = (await discussions()).find((discussion) => discussion.notes[0]!.body === 'Looks good overall')!;
    expect(summary).toMatchObject({ individual_note: true });
    expect(summary.notes[0]).toMatchObject({ type: null, resolvable: false });
    // the drafts went out with it
    expect((await discussions()).some((discussion) => discussion.notes[0]!.body === 'A point in the review')).toBe(true);
    // an over-long summary changes nothing
    await reviewer.api.MergeRequestDraftNotes.create(project.id, project.iid, 'Kept as a draft');
    expect((await fx.call('POST', `${base()}/bulk_publish`, { token: reviewer.user.token, body: { note: 'x'.repeat(1_000_001) } })).status).toBe(400);
    expect(await reviewer.api.MergeRequestDraftNotes.all(project.id, project.iid)).toHaveLength(1);
    await reviewer.api.MergeRequestDraftNotes.remove(project.id, project.iid, (await reviewer.api.MergeRequestDraftNotes.all(project.id, project.iid))[0]!.id);
  });

  it('refuses a reply to a thread that is not there, and an invalid position', async () => {
    expect(await fx.call('POST', base(), { token: reviewer.user.token, body: { note: 'x', in_reply_to_discussion_id: 'f'.repeat(40) } })).toMatchObject({
      status: 400,
      body: { message: { base: ['Thread to reply to cannot be found'] } },
    });
    const position = { base_sha: project.refs.baseSha, start_sha: project.refs.startSha, head_sha: project.refs.headSha, position_type: 'text', new_path: 'lines.txt', new_line: 999 };
    expect((await fx.call('POST', base(), { token: reviewer.user.token, body: { note: 'x', position } })).status).toBe(400);
    expect(await fx.call('POST', base(), { token: reviewer.user.token, body: { note: '' } })).toMatchObject({ status: 400 });
  });
});
