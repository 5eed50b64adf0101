import type { MergeRequestNoteSchema } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { SETUP_TIMEOUT_MS, startNotesFixtures, type Client, type NotesFixtures, type NotesProject } from '../../../../test-support/notes-fixtures.js';
import type { TestUser } from '../../../../test-support/server.js';

/** Notes of a merge request through @gitbeaker/rest: CRUD, order, pages, edit conflicts, system notes. */
describe(`merge request notes (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let project: NotesProject;
  let developer: { user: TestUser; api: Client };
  let maintainer: { user: TestUser; api: Client };
  const base = () => `/projects/${project.id}/merge_requests/${project.iid}/notes`;

  beforeAll(async () => {
    fx = await startNotesFixtures();
    project = await fx.notesProject('notes-crud');
    developer = await fx.memberClient(project.id, 30);
    maintainer = await fx.memberClient(project.id, 40);
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  it('creates, shows, edits and deletes a note with GitLab’s entity', async () => {
    const created = await developer.api.MergeRequestNotes.create(project.id, project.iid, 'First comment');
    expect(created).toMatchObject({
      type: null,
      body: 'First comment',
      attachment: null,
      author: { id: developer.user.id, username: developer.user.username },
      system: false,
      noteable_id: project.mergeRequestId,
      noteable_type: 'MergeRequest',
      noteable_iid: project.iid,
      project_id: project.id,
      resolvable: false,
      confidential: false,
      internal: false,
      imported: false,
      lock_version: 0,
    });
    expect(created).not.toHaveProperty('resolved');
    expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    expect(await fx.root.MergeRequestNotes.show(project.id, project.iid, created.id)).toMatchObject({ id: created.id, body: 'First comment' });
    const edited = await developer.api.MergeRequestNotes.edit(project.id, project.iid, created.id, { body: 'Edited comment' });
    expect(edited).toMatchObject({ id: created.id, body: 'Edited comment', lock_version: 1 });

    await developer.api.MergeRequestNotes.remove(project.id, project.iid, created.id);
    expect((await fx.call('GET', `${base()}/${created.id}`)).status).toBe(404);
  });

  it('lists newest first by default, sorts by either date both ways, and pages with Link headers', async () => {
    const ids: number[] = [];
    for (const body of ['one', 'two', 'three']) ids.push((await developer.api.MergeRequestNotes.create(project.id, project.iid, `order ${body}`)).id as number);
    await developer.api.MergeRequestNotes.edit(project.id, project.iid, ids[0]!, { body: 'order one, edited last' });
    const mine = (notes: Array<{ id: number }>) => notes.map((note) => note.id).filter((id) => ids.includes(id));

    expect(mine((await fx.root.MergeRequestNotes.all(project.id, project.iid)) as Array<{ id: number }>)).toEqual([ids[2], ids[1], ids[0]]);
    expect(mine((await fx.root.MergeRequestNotes.all(project.id, project.iid, { sort: 'asc' })) as Array<{ id: number }>)).toEqual(ids);
    expect(mine((await fx.root.MergeRequestNotes.all(project.id, project.iid, { orderBy: 'updated_at', sort: 'desc' })) as Array<{ id: number }>)).toEqual([ids[0], ids[2], ids[1]]);

    const page = await fx.call('GET', `${base()}?per_page=2&sort=asc`);
    expect(page.body).toHaveLength(2);
    expect(page.headers.get('x-per-page')).toBe('2');
    expect(page.headers.get('link')).toContain('rel="next"');
    // gitbeaker follows the Link header through every page
    const all = (await fx.root.MergeRequestNotes.all(project.id, project.iid, { perPage: 2 })) as Array<{ id: number }>;
    expect(all.length).toBe(Number(page.headers.get('x-total')));
    expect((await fx.call('GET', `${base()}?order_by=title`)).status).toBe(400);
  });

  it('refuses a blank or missing body', async () => {
    const blank = await fx.call('POST', base(), { body: { body: '   ' } });
    expect(blank).toMatchObject({ status: 400, body: { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' } });
    expect(await fx.call('POST', base(), { body: {} })).toMatchObject({ status: 400, body: { error: 'body is missing' } });
  });

  it('answers 409 to an edit based on a stale lock_version and keeps the newer text', async () => {
    const note = await developer.api.MergeRequestNotes.create(project.id, project.iid, 'v0');
    const first = await fx.call('PUT', `${base()}/${note.id}`, { token: developer.user.token, body: { body: 'v1', lock_version: 0 } });
    expect(first).toMatchObject({ status: 200, body: { body: 'v1', lock_version: 1 } });
    const stale = await fx.call('PUT', `${base()}/${note.id}`, { token: developer.user.token, body: { body: 'lost edit', lock_version: 0 } });
    expect(stale).toMatchObject({
      status: 409,
      body: { message: 'This comment changed after you started editing it. Review the updated comment to ensure information is not lost.' },
    });
    expect(await developer.api.MergeRequestNotes.show(project.id, project.iid, note.id)).toMatchObject({ body: 'v1', lock_version: 1 });
  });

  it('lets authors edit their own notes only, and Maintainers delete anyone’s', async () => {
    const note = await developer.api.MergeRequestNotes.create(project.id, project.iid, 'developer’s');
    expect((await fx.call('PUT', `${base()}/${note.id}`, { token: maintainer.user.token, body: { body: 'hijack' } })).status).toBe(403);
    const reporter = await fx.memberClient(project.id, 20);
    expect((await fx.call('DELETE', `${base()}/${note.id}`, { token: reporter.user.token })).status).toBe(403);
    expect((await fx.call('DELETE', `${base()}/${note.id}`, { token: maintainer.user.token })).status).toBe(204);
  });

  it('tells each reader what they may do to a note (current_user), by the one note rule', async () => {
    const note = await developer.api.MergeRequestNotes.create(project.id, project.iid, 'Whose is this');
    const asSeenBy = async (api: Client) => {
      const [discussion] = (await api.MergeRequestDiscussions.all(project.id, project.iid)).filter((d) => (d.notes as Array<{ id: number }>)[0]!.id === note.id);
      return discussion!.notes![0]!.current_user;
    };
    const other = await fx.memberClient(project.id, 30);
    expect(await asSeenBy(developer.api)).toEqual({ can_edit: true, can_delete: true, can_award_emoji: true, can_resolve_discussion: false });
    expect(await asSeenBy(other.api)).toEqual({ can_edit: false, can_delete: false, can_award_emoji: true, can_resolve_discussion: false });
    expect(await asSeenBy(maintainer.api)).toEqual({ can_edit: false, can_delete: true, can_award_emoji: true, can_resolve_discussion: false });
    // what it says is what the server does
    expect((await fx.call('DELETE', `${base()}/${note.id}`, { token: other.user.token })).status).toBe(403);
  });

  it('says who last edited a note and when', async () => {
    const note = await developer.api.MergeRequestNotes.create(project.id, project.iid, 'Before');
    expect(await developer.api.MergeRequestNotes.show(project.id, project.iid, note.id)).toMatchObject({ last_edited_at: null, last_edited_by: null });
    await developer.api.MergeRequestNotes.edit(project.id, project.iid, note.id, { body: 'After' });
    const edited = (await developer.api.MergeRequestNotes.show(project.id, project.iid, note.id)) as MergeRequestNoteSchema & { last_edited_at: string; last_edited_by: { username: string } };
    expect(edited.last_edited_by.username).toBe(developer.user.username);
    expect(Date.parse(edited.last_edited_at)).not.toBeNaN();
  });

  it('needs a signed-in user to comment', async () => {
    expect((await fx.call('POST', base(), { token: null, body: { body: 'anonymous' } })).status).toBe(401);
  });

  it('writes system notes for title, draft, target branch, close and reopen, with GitLab’s words', async () => {
    const other = await fx.notesProject('notes-system');
    await fx.root.Branches.create(other.id, 'release', 'main');
    await fx.root.MergeRequests.edit(other.id, other.iid, { title: 'Feature, renamed' });
    await fx.root.MergeRequests.edit(other.id, other.iid, { title: 'Draft: Feature, renamed' });
    await fx.root.MergeRequests.edit(other.id, other.iid, { targetBranch: 'release' });
    await fx.root.MergeRequests.edit(other.id, other.iid, { stateEvent: 'close' });
    await fx.root.MergeRequests.edit(other.id, other.iid, { stateEvent: 'reopen' });
    const notes = (await fx.root.MergeRequestNotes.all(other.id, other.iid, { sort: 'asc' })) as Array<{ body: string; system: boolean; author: { username: string } }>;
    expect(notes.map((note) => note.body)).toEqual([
      'changed title from **Feature** to **Feature{+, renamed+}**',
      'marked this merge request as **draft**',
      'changed target branch from `main` to `release`',
      'closed',
      'reopened',
    ]);
    expect(notes.every((note) => note.system && note.author.username === 'root')).toBe(true);
    // listed twice, still written once
    expect(await fx.root.MergeRequestNotes.all(other.id, other.iid)).toHaveLength(5);
  });

  it('writes system notes for assignees and reviewers, with GitLab’s words', async () => {
    const other = await fx.notesProject('notes-people');
    const alice = await fx.memberClient(other.id, 30);
    const bob = await fx.memberClient(other.id, 30);
    await fx.root.MergeRequests.edit(other.id, other.iid, { assigneeIds: [alice.user.id] });
    await fx.root.MergeRequests.edit(other.id, other.iid, { assigneeIds: [bob.user.id] });
    await fx.root.MergeRequests.edit(other.id, other.iid, { assigneeIds: [bob.user.id] });
    await fx.root.MergeRequests.edit(other.id, other.iid, { reviewerIds: [alice.user.id, bob.user.id] });
    await fx.root.MergeRequests.edit(other.id, other.iid, { reviewerIds: [] });
    const notes = (await fx.root.MergeRequestNotes.all(other.id, other.iid, { sort: 'asc' })) as Array<{ body: string; system: boolean }>;
    const a = alice.user.username;
    const b = bob.user.username;
    expect(notes.map((note) => note.body)).toEqual([
      `assigned to @${a}`,
      `assigned to @${b} and unassigned @${a}`,
      `requested review from @${a} and @${b}`,
      `removed review request for @${a} and @${b}`,
    ]);
    expect(notes.every((note) => note.system)).toBe(true);
  });

  it('writes "added N commits" with the commit list after a push', async () => {
    const other = await fx.notesProject('notes-push');
    const pushed = await fx.root.Commits.create(other.id, 'feature', 'Second <change>', [{ action: 'create', filePath: 'second.txt', content: '2\n' }]);
    const notes = await eventuallyNotes(fx, other, (list) => list.some((note) => note.body.startsWith('added')));
    const note = notes.find((candidate) => candidate.body.startsWith('added'))!;
    expect(note.system).toBe(true);
    expect(note.author.username).toBe('root');
    const [latest] = await fx.root.MergeRequests.allDiffVersions(other.id, other.iid);
    expect(note.body).toBe(
      `added 1 commit\n\n<ul><li>${pushed.short_id} - Second &lt;change&gt;</li></ul>\n\n[Compare with previous version](/${other.path}/-/merge_requests/${other.iid}/diffs?diff_id=${latest!.id}&start_sha=${other.refs.headSha})`,
    );
  });
});

async function eventuallyNotes(fx: NotesFixtures, project: NotesProject, done: (notes: Array<{ body: string; system: boolean; author: { username: string } }>) => boolean) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const notes = (await fx.root.MergeRequestNotes.all(project.id, project.iid, { sort: 'asc' })) as Array<{ body: string; system: boolean; author: { username: string } }>;
    if (done(notes)) return notes;
    if (Date.now() > deadline) throw new Error(`condition not reached: ${JSON.stringify(notes.map((note) => note.body))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
