import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { SETUP_TIMEOUT_MS, startNotesFixtures, type Client, type NotesFixtures, type NotesProject } from '../../../../test-support/notes-fixtures.js';
import type { TestUser } from '../../../../test-support/server.js';

/** Award emoji through @gitbeaker/rest, on the merge request and on its notes, with GitLab's refusals. */
describe(`award emoji (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let project: NotesProject;
  let member: { user: TestUser; api: Client };
  let noteId: number;
  const mrBase = () => `/projects/${project.id}/merge_requests/${project.iid}/award_emoji`;

  beforeAll(async () => {
    fx = await startNotesFixtures();
    project = await fx.notesProject('awards');
    member = await fx.memberClient(project.id, 20);
    noteId = (await fx.root.MergeRequestNotes.create(project.id, project.iid, 'React to me')).id as number;
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  it('awards, lists, shows and removes emoji on the merge request', async () => {
    const award = await member.api.MergeRequestAwardEmojis.award(project.id, project.iid, 'tada');
    expect(award).toMatchObject({
      name: 'tada',
      user: { id: member.user.id, username: member.user.username },
      awardable_id: project.mergeRequestId,
      awardable_type: 'MergeRequest',
      url: null,
    });
    expect(await fx.root.MergeRequestAwardEmojis.all(project.id, project.iid)).toMatchObject([{ id: award.id, name: 'tada' }]);
    expect(await fx.root.MergeRequestAwardEmojis.show(project.id, project.iid, award.id)).toMatchObject({ id: award.id });
    await member.api.MergeRequestAwardEmojis.remove(project.id, project.iid, award.id);
    expect(await fx.root.MergeRequestAwardEmojis.all(project.id, project.iid)).toEqual([]);
  });

  it('stores the canonical name of an alias, and refuses duplicates and unknown names with GitLab’s 404s', async () => {
    const up = await member.api.MergeRequestAwardEmojis.award(project.id, project.iid, '+1');
    expect(up.name).toBe('thumbsup');
    expect(await fx.call('POST', mrBase(), { token: member.user.token, body: { name: 'thumbsup' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Name has already been taken Not Found' },
    });
    expect(await fx.call('POST', mrBase(), { token: member.user.token, body: { name: 'not_an_emoji' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Name is not a valid emoji name Not Found' },
    });
    expect(await fx.call('POST', mrBase(), { token: member.user.token, body: {} })).toMatchObject({ status: 400 });
    // someone else may award the same name
    await fx.root.MergeRequestAwardEmojis.award(project.id, project.iid, 'thumbsup');
    const down = await fx.root.MergeRequestAwardEmojis.award(project.id, project.iid, 'thumbsdown');
    expect(await fx.server.app.services.discussionStats.votes([project.mergeRequestId])).toEqual(new Map([[project.mergeRequestId, { upvotes: 2, downvotes: 1 }]]));
    // the merge request entity counts them, in the single GET and in lists
    expect(await fx.root.MergeRequests.show(project.id, project.iid)).toMatchObject({ upvotes: 2, downvotes: 1 });
    expect((await fx.root.MergeRequests.all({ projectId: project.id })).find((mr) => mr.iid === project.iid)).toMatchObject({ upvotes: 2, downvotes: 1 });
    await fx.root.MergeRequestAwardEmojis.remove(project.id, project.iid, down.id);
  });

  it('lets only the awarder (or an administrator) remove an award: 401 otherwise', async () => {
    const award = await member.api.MergeRequestAwardEmojis.award(project.id, project.iid, 'rocket');
    const developer = await fx.member(project.id, 30);
    expect((await fx.call('DELETE', `${mrBase()}/${award.id}`, { token: developer.token })).status).toBe(401);
    expect((await fx.call('DELETE', `${mrBase()}/${award.id}`, { token: fx.server.root.token })).status).toBe(204);
  });

  it('awards emoji on notes, but not on system notes', async () => {
    const award = await member.api.MergeRequestNoteAwardEmojis.award(project.id, project.iid, noteId, 'eyes');
    expect(award).toMatchObject({ name: 'eyes', awardable_id: noteId, awardable_type: 'Note' });
    expect(await fx.root.MergeRequestNoteAwardEmojis.all(project.id, project.iid, noteId)).toMatchObject([{ id: award.id }]);
    expect(await fx.root.MergeRequestNoteAwardEmojis.show(project.id, project.iid, noteId, award.id)).toMatchObject({ id: award.id });
    // the note's award is not the merge request's
    expect((await fx.call('GET', `${mrBase()}/${award.id}`)).status).toBe(404);
    await member.api.MergeRequestNoteAwardEmojis.remove(project.id, project.iid, noteId, award.id);

    await fx.root.MergeRequests.edit(project.id, project.iid, { stateEvent: 'close' });
    const system = ((await fx.root.MergeRequestNotes.all(project.id, project.iid)) as Array<{ id: number; system: boolean }>).find((note) => note.system)!;
    expect(await fx.call('POST', `/projects/${project.id}/merge_requests/${project.iid}/notes/${system.id}/award_emoji`, { token: member.user.token, body: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Awardable cannot be awarded emoji Not Found' },
    });
    await fx.root.MergeRequests.edit(project.id, project.iid, { stateEvent: 'reopen' });
  });

  it('lists the awards of every note in one paginated call, leaving out internal notes for Guests', async () => {
    const other = await fx.notesProject('awards-bulk', { visibility: 'public' });
    const open = (await fx.root.MergeRequestNotes.create(other.id, other.iid, 'Public')).id as number;
    const internal = (await fx.call('POST', `/projects/${other.id}/merge_requests/${other.iid}/notes`, { body: { body: 'Secret', internal: true } })).body.id as number;
    const guest = await fx.memberClient(other.id, 10);
    await fx.root.MergeRequestNoteAwardEmojis.award(other.id, other.iid, open, 'tada');
    await guest.api.MergeRequestNoteAwardEmojis.award(other.id, other.iid, open, 'thumbsup');
    await fx.root.MergeRequestNoteAwardEmojis.award(other.id, other.iid, internal, 'eyes');
    // an award on the merge request itself is not a note's
    await fx.root.MergeRequestAwardEmojis.award(other.id, other.iid, 'rocket');
    const bulk = `/projects/${other.id}/merge_requests/${other.iid}/notes_award_emoji`;

    const all = await fx.call('GET', bulk);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject([
      { name: 'tada', awardable_id: open, awardable_type: 'Note', user: { username: 'root' } },
      { name: 'thumbsup', awardable_id: open, user: { id: guest.user.id } },
      { name: 'eyes', awardable_id: internal },
    ]);
    expect(all.headers.get('x-total')).toBe('3');

    const asGuest = await fx.call('GET', bulk, { token: guest.user.token });
    expect((asGuest.body as Array<{ name: string }>).map((award) => award.name)).toEqual(['tada', 'thumbsup']);
    expect(asGuest.headers.get('x-total')).toBe('2');

    // pages of up to 1,000 (ours; GitLab's lists stop at 100)
    expect((await fx.call('GET', `${bulk}?per_page=500`)).headers.get('x-per-page')).toBe('500');
    expect((await fx.call('GET', `${bulk}?per_page=5000`)).headers.get('x-per-page')).toBe('1000');
    const page2 = await fx.call('GET', `${bulk}?per_page=2&page=2`);
    expect(page2.body).toMatchObject([{ name: 'eyes' }]);
    expect(page2.headers.get('x-next-page')).toBe('');

    // a merge request the caller may not read is a 404, like any of its notes
    const stranger = await fx.server.createUser();
    expect((await fx.call('GET', `/projects/${project.id}/merge_requests/${project.iid}/notes_award_emoji`, { token: stranger.token })).status).toBe(404);
  });

  it('needs a signed-in user to award', async () => {
    expect((await fx.call('POST', mrBase(), { token: null, body: { name: 'tada' } })).status).toBe(401);
  });
});
