import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { SETUP_TIMEOUT_MS, startNotesFixtures, type NotesFixtures, type NotesProject } from '../../../test-support/notes-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';

/**
 * Description history: each description change keeps a version and a "changed the description"
 * system note pointing at it; the diff against the previous version; soft deletion by the
 * version's author or a Maintainer; versions are reached only through their own merge request.
 */
describe(`description versions (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let mine: NotesProject;
  let theirs: NotesProject;
  let developer: TestUser;
  let reporter: TestUser;
  let maintainer: TestUser;
  let stranger: TestUser;
  const base = (p: NotesProject) => `/projects/${p.id}/merge_requests/${p.iid}/description_versions`;

  beforeAll(async () => {
    fx = await startNotesFixtures();
    mine = await fx.notesProject('history-mine');
    theirs = await fx.notesProject('history-theirs');
    developer = await fx.member(mine.id, 30);
    reporter = await fx.member(mine.id, 20);
    maintainer = await fx.member(mine.id, 40);
    stranger = await fx.server.createUser();
    await fx.root.MergeRequests.edit(mine.id, mine.iid, { description: 'Fixes the login bug.' });
    await fx.client(developer).MergeRequests.edit(mine.id, mine.iid, { description: 'Fixes the signup bug.\n\nAlso docs.' });
    // a title-only edit keeps no version
    await fx.root.MergeRequests.edit(mine.id, mine.iid, { title: 'Feature, renamed' });
    await fx.root.MergeRequests.edit(theirs.id, theirs.iid, { description: 'Theirs' });
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  it('keeps a version per change, each with its "changed the description" note', async () => {
    const notes = (await fx.root.MergeRequestNotes.all(mine.id, mine.iid)) as unknown as Array<{ id: number; body: string; system: boolean; author: { id: number } }>;
    const changed = notes.filter((n) => n.system && n.body === 'changed the description');
    expect(changed).toHaveLength(2);
    const versions = (await fx.call('GET', base(mine))).body as Array<Record<string, any>>;
    expect(versions.map((v) => v.description)).toEqual(['Fixes the login bug.', 'Fixes the signup bug.\n\nAlso docs.']);
    expect(versions.map((v) => v.author_id)).toEqual([fx.server.root.id, developer.id]);
    expect(versions.map((v) => v.note_id).sort()).toEqual(changed.map((n) => n.id).sort());
    expect(versions.every((v) => v.deleted === false)).toBe(true);
  });

  it('keeps the text a first edit replaced', async () => {
    await fx.root.MergeRequests.edit(theirs.id, theirs.iid, { description: 'Theirs, edited' });
    const versions = (await fx.call('GET', base(theirs))).body as Array<Record<string, any>>;
    expect(versions.map((v) => v.description)).toEqual(['Theirs', 'Theirs, edited']);
  });

  it('diffs a version with the previous one, or with a chosen start', async () => {
    const [first, second] = (await fx.call('GET', base(mine))).body as Array<{ id: number }>;
    const diff = await fx.call('GET', `${base(mine)}/${second!.id}/diff`);
    expect(diff.status).toBe(200);
    expect(diff.body.start_version.id).toBe(first!.id);
    expect(diff.body.diff).toEqual([
      { type: 'same', text: 'Fixes the ' },
      { type: 'removed', text: 'login' },
      { type: 'added', text: 'signup' },
      { type: 'same', text: ' bug' },
      { type: 'added', text: '.\n\nAlso docs' },
      { type: 'same', text: '.' },
    ]);
    const fromStart = await fx.call('GET', `${base(mine)}/${second!.id}/diff?start_version_id=${first!.id}`);
    expect(fromStart.body.diff).toEqual(diff.body.diff);
    // the first version compares with nothing
    expect((await fx.call('GET', `${base(mine)}/${first!.id}/diff`)).body.diff).toEqual([{ type: 'added', text: 'Fixes the login bug.' }]);
    // a start after the version makes no sense
    expect((await fx.call('GET', `${base(mine)}/${first!.id}/diff?start_version_id=${second!.id}`)).status).toBe(404);
  });

  it('a version of another merge request or project is a 404, even to an admin', async () => {
    const [theirVersion] = (await fx.call('GET', base(theirs))).body as Array<{ id: number }>;
    expect((await fx.call('GET', `${base(mine)}/${theirVersion!.id}/diff`)).status).toBe(404);
    expect((await fx.call('DELETE', `${base(mine)}/${theirVersion!.id}`, { token: maintainer.token })).status).toBe(404);
    expect((await fx.call('GET', `${base(mine)}/${mine.iid === 1 ? 999999 : 1}/diff`)).status).toBe(404);
    // and nothing of theirs is readable to someone who cannot see the project
    expect((await fx.call('GET', base(theirs), { token: maintainer.token })).status).toBe(404);
    expect((await fx.call('GET', `${base(theirs)}/${theirVersion!.id}/diff`, { token: stranger.token })).status).toBe(404);
    expect((await fx.call('GET', base(mine), { token: null })).status).toBe(404);
  });

  it('soft-deletes: only the version’s author or a Maintainer', async () => {
    const [first, second] = (await fx.call('GET', base(mine), { token: developer.token })).body as Array<{ id: number; can_delete: boolean }>;
    expect([first!.can_delete, second!.can_delete]).toEqual([false, true]);
    expect((await fx.call('DELETE', `${base(mine)}/${second!.id}`, { token: reporter.token })).status).toBe(403);
    expect((await fx.call('DELETE', `${base(mine)}/${first!.id}`, { token: developer.token })).status).toBe(403);
    expect((await fx.call('DELETE', `${base(mine)}/${second!.id}`, { token: null })).status).toBe(401);
    expect((await fx.call('DELETE', `${base(mine)}/${second!.id}`, { token: developer.token })).status).toBe(204);
    expect((await fx.call('DELETE', `${base(mine)}/${second!.id}`, { token: developer.token })).status).toBe(404);
    expect((await fx.call('GET', `${base(mine)}/${second!.id}/diff`)).status).toBe(404);
    expect((await fx.call('DELETE', `${base(mine)}/${first!.id}`, { token: maintainer.token })).status).toBe(204);

    const after = (await fx.call('GET', base(mine))).body as Array<Record<string, any>>;
    expect(after.map((v) => [v.deleted, v.description])).toEqual([
      [true, ''],
      [true, ''],
    ]);
    // the merge request's description itself is untouched
    expect((await fx.root.MergeRequests.show(mine.id, mine.iid)).description).toBe('Fixes the signup bug.\n\nAlso docs.');
  });
}, 240_000);
