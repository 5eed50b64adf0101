import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { SETUP_TIMEOUT_MS, startNotesFixtures, type NotesFixtures, type NotesProject } from '../../../test-support/notes-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';
import { graphql, signIn, type Credentials } from '../testing.js';
import { RESOURCE_NOT_AVAILABLE } from './errors.js';
import {
  createDiffNoteMutation,
  createNoteMutation,
  deleteNoteMutation,
  discussionSetResolved,
  getMrDiscussionsQuery,
  getMrPermissionsQuery,
  updateNoteBodyMutation,
} from './extension-documents.js';

/**
 * GitLab's editor extension against the real server over HTTP: its own query and mutation
 * documents, word for word, with a token and with a cookie session; refusals for strangers
 * and too-low roles; GitLab's errors for bad ids and bad input.
 */
describe(`GraphQL for editor extensions (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let project: NotesProject;
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  const as = (user: TestUser): Credentials => ({ token: user.token });
  const run = (query: string, variables: Record<string, unknown>, credentials: Credentials = { token: fx.server.root.token }) => graphql(fx.server.url, query, variables, credentials);
  const mrGid = () => `gid://gitlab/MergeRequest/${project.mergeRequestId}`;
  const discussions = async (credentials?: Credentials) => {
    const response = await run(getMrDiscussionsQuery, { projectPath: project.path, iid: String(project.iid) }, credentials);
    expect(response.body.errors).toBeUndefined();
    return response.body.data.project.mergeRequest?.discussions;
  };
  const restNotes = async () => (await fx.root.MergeRequestNotes.all(project.id, project.iid)) as Array<{ id: number; body: string; system: boolean; resolved?: boolean }>;

  beforeAll(async () => {
    fx = await startNotesFixtures();
    project = await fx.notesProject('gql-editor');
    developer = (await fx.memberClient(project.id, 30)).user;
    reporter = (await fx.memberClient(project.id, 20)).user;
    stranger = await fx.server.createUser();
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  describe('the extension’s documents', () => {
    let threadReplyId: string;
    let diffNoteId: string;

    it('GetMrPermissions: a Reporter may comment, a stranger sees no merge request', async () => {
      expect((await run(getMrPermissionsQuery, { projectPath: project.path, iid: String(project.iid) }, as(reporter))).body).toEqual({
        data: { project: { mergeRequest: { userPermissions: { createNote: true } } } },
      });
      expect((await run(getMrPermissionsQuery, { projectPath: project.path, iid: String(project.iid) }, as(stranger))).body).toEqual({ data: { project: null } });
    });

    it('CreateNote: a comment, then a reply in its thread by replyId', async () => {
      const created = await run(createNoteMutation, { issuableId: mrGid(), body: 'First **look**' }, as(developer));
      expect(created.status).toBe(200);
      expect(created.body.errors).toBeUndefined();
      const note = created.body.data.createNote.note;
      expect(created.body.data.createNote.errors).toEqual([]);
      expect(note).toMatchObject({
        id: expect.stringMatching(/^gid:\/\/gitlab\/Note\/\d+$/),
        system: false,
        body: 'First **look**',
        bodyHtml: expect.stringContaining('<strong>look</strong>'),
        author: { username: developer.username, avatarUrl: null },
        url: expect.stringMatching(new RegExp(`/${project.path}/-/merge_requests/${project.iid}#note_\\d+$`)),
        userPermissions: { resolveNote: false, adminNote: true, createNote: true },
        position: null,
      });

      const listed = await discussions(as(developer));
      const individual = listed.nodes.find((d: any) => d.notes.nodes[0].body === 'First **look**');
      expect(individual).toMatchObject({ replyId: expect.stringMatching(/^gid:\/\/gitlab\/IndividualNoteDiscussion\/[0-9a-f]{40}$/), resolvable: false, resolved: false });

      const reply = await run(createNoteMutation, { issuableId: mrGid(), body: 'A reply', replyId: individual.replyId }, as(reporter));
      expect(reply.body.data.createNote).toMatchObject({ errors: [], note: { body: 'A reply', id: expect.stringMatching(/^gid:\/\/gitlab\/DiscussionNote\/\d+$/) } });
      const thread = (await discussions(as(developer))).nodes.find((d: any) => d.notes.nodes[0].body === 'First **look**');
      expect(thread.notes.nodes.map((n: any) => n.body)).toEqual(['First **look**', 'A reply']);
      expect(thread).toMatchObject({ resolvable: true, resolved: false });
      threadReplyId = thread.replyId;
    });

    it('CreateDiffNote: a thread on a changed line, with its position', async () => {
      const position = { baseSha: project.refs.baseSha, headSha: project.refs.headSha, startSha: project.refs.startSha, paths: { oldPath: 'lines.txt', newPath: 'lines.txt' }, newLine: 2 };
      const created = await run(createDiffNoteMutation, { issuableId: mrGid(), body: 'Why this change?', position }, as(reporter));
      expect(created.body.errors).toBeUndefined();
      const { errors, note } = created.body.data.createDiffNote;
      expect(errors).toEqual([]);
      expect(note.discussion).toMatchObject({
        replyId: expect.stringMatching(/^gid:\/\/gitlab\/DiffDiscussion\/[0-9a-f]{40}$/),
        resolvable: true,
        resolved: false,
        notes: { pageInfo: { hasNextPage: false }, nodes: [{ body: 'Why this change?', userPermissions: { adminNote: true, createNote: true, resolveNote: false } }] },
      });
      expect(note.discussion.notes.nodes[0].position).toEqual({
        diffRefs: { baseSha: project.refs.baseSha, headSha: project.refs.headSha, startSha: project.refs.startSha },
        filePath: 'lines.txt',
        positionType: 'text',
        newLine: 2,
        oldLine: null,
        newPath: 'lines.txt',
        oldPath: 'lines.txt',
      });
      diffNoteId = note.discussion.notes.nodes[0].id;
      expect(diffNoteId).toMatch(/^gid:\/\/gitlab\/DiffNote\/\d+$/);
    });

    it('GetMrDiscussions: every thread with its notes and what the caller may do', async () => {
      const listed = await discussions(as(developer));
      expect(listed.pageInfo).toEqual({ hasNextPage: false, endCursor: null });
      const diff = listed.nodes.find((d: any) => d.notes.nodes[0].id === diffNoteId);
      // A Developer resolves others' threads but edits only their own notes.
      expect(diff.notes.nodes[0].userPermissions).toEqual({ resolveNote: true, adminNote: false, createNote: true });
      expect(diff.notes.nodes[0].author.username).toBe(reporter.username);
    });

    it('DiscussionToggleResolve resolves and unresolves a thread, as the REST API shows', async () => {
      const resolved = await run(discussionSetResolved, { replyId: threadReplyId, resolved: true }, as(developer));
      expect(resolved.body).toEqual({ data: { discussionToggleResolve: { errors: [] } } });
      expect((await discussions(as(developer))).nodes.find((d: any) => d.replyId === threadReplyId)).toMatchObject({ resolved: true });
      await run(discussionSetResolved, { replyId: threadReplyId, resolved: false }, as(developer));
      expect((await discussions(as(developer))).nodes.find((d: any) => d.replyId === threadReplyId)).toMatchObject({ resolved: false });
    });

    it('UpdateNoteBody edits the caller’s own note; DeleteNote deletes it', async () => {
      const updated = await run(updateNoteBodyMutation, { noteId: diffNoteId, body: 'Why this change, really?' }, as(reporter));
      expect(updated.body).toEqual({ data: { updateNote: { errors: [] } } });
      const id = Number(diffNoteId.split('/').pop());
      expect((await restNotes()).find((n) => n.id === id)?.body).toBe('Why this change, really?');

      expect((await run(deleteNoteMutation, { noteId: diffNoteId }, as(reporter))).body).toEqual({ data: { destroyNote: { errors: [] } } });
      expect((await restNotes()).some((n) => n.id === id)).toBe(false);
    });
  });

  describe('refusals', () => {
    let noteGid: string;
    let noteId: number;
    let threadGid: string;

    beforeAll(async () => {
      const created = await run(createNoteMutation, { issuableId: mrGid(), body: 'Developer note' }, as(developer));
      noteGid = created.body.data.createNote.note.id;
      noteId = Number(noteGid.split('/').pop());
      const thread = await fx.client(developer).MergeRequestDiscussions.create(project.id, project.iid, 'A thread');
      threadGid = `gid://gitlab/Discussion/${thread.id}`;
    });

    const refused = (response: Awaited<ReturnType<typeof run>>, field: string) => {
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ [field]: null });
      expect(response.body.errors?.map((e) => e.message)).toEqual([RESOURCE_NOT_AVAILABLE]);
    };

    it('a stranger of the private project can neither comment, edit, delete, resolve nor react, and nothing changes', async () => {
      const before = await restNotes();
      refused(await run(createNoteMutation, { issuableId: mrGid(), body: 'Hi' }, as(stranger)), 'createNote');
      refused(await run(updateNoteBodyMutation, { noteId: noteGid, body: 'Mine now' }, as(stranger)), 'updateNote');
      refused(await run(deleteNoteMutation, { noteId: noteGid }, as(stranger)), 'destroyNote');
      refused(await run(discussionSetResolved, { replyId: threadGid, resolved: true }, as(stranger)), 'discussionToggleResolve');
      refused(await run(`mutation { awardEmojiToggle(input: { awardableId: "${noteGid}", name: "thumbsup" }) { errors toggledOn } }`, {}, as(stranger)), 'awardEmojiToggle');
      expect(await restNotes()).toEqual(before);
    });

    it('a stranger reads no note by id: null, as for a note that does not exist', async () => {
      expect((await run('query($id: NoteID!) { note(id: $id) { id body } }', { id: noteGid }, as(stranger))).body).toEqual({ data: { note: null } });
      expect((await run('query($id: NoteID!) { note(id: $id) { id body } }', { id: 'gid://gitlab/Note/999999999' })).body).toEqual({ data: { note: null } });
      expect((await run('query($id: NoteID!) { note(id: $id) { id body userPermissions { readNote adminNote awardEmoji repositionNote } } }', { id: noteGid }, as(reporter))).body).toEqual({
        data: { note: { id: noteGid, body: 'Developer note', userPermissions: { readNote: true, adminNote: false, awardEmoji: true, repositionNote: false } } },
      });
    });

    it('a Reporter may not edit another’s note, resolve a thread, mark as draft, merge or assign', async () => {
      refused(await run(updateNoteBodyMutation, { noteId: noteGid, body: 'Edited' }, as(reporter)), 'updateNote');
      refused(await run(deleteNoteMutation, { noteId: noteGid }, as(reporter)), 'destroyNote');
      refused(await run(discussionSetResolved, { replyId: threadGid, resolved: true }, as(reporter)), 'discussionToggleResolve');
      const mr = { projectPath: project.path, iid: String(project.iid) };
      refused(await run('mutation($projectPath: ID!, $iid: String!) { mergeRequestSetDraft(input: { projectPath: $projectPath, iid: $iid, draft: true }) { errors } }', mr, as(reporter)), 'mergeRequestSetDraft');
      refused(await run('mutation($projectPath: ID!, $iid: String!) { mergeRequestAccept(input: { projectPath: $projectPath, iid: $iid, sha: "0000000000000000000000000000000000000000" }) { errors } }', mr, as(reporter)), 'mergeRequestAccept');
      refused(await run(`mutation($projectPath: ID!, $iid: String!) { mergeRequestSetAssignees(input: { projectPath: $projectPath, iid: $iid, assigneeUsernames: ["${reporter.username}"] }) { errors } }`, mr, as(reporter)), 'mergeRequestSetAssignees');
      expect((await restNotes()).find((n) => n.id === noteId)?.body).toBe('Developer note');
      expect((await fx.root.MergeRequests.show(project.id, project.iid)).draft).toBe(false);
    });

    it('a token with read_api only may read but not write', async () => {
      const readOnly = await fx.server.createToken(developer.id, { scopes: ['read_api'] });
      expect((await run(getMrPermissionsQuery, { projectPath: project.path, iid: String(project.iid) }, { token: readOnly })).body.data.project.mergeRequest).not.toBeNull();
      refused(await run(createNoteMutation, { issuableId: mrGid(), body: 'Hi' }, { token: readOnly }), 'createNote');
    });

    it('an anonymous caller may not write', async () => {
      refused(await run(createNoteMutation, { issuableId: mrGid(), body: 'Hi' }, {}), 'createNote');
    });
  });

  describe('internal notes', () => {
    it('a Guest of a public project sees neither an internal note nor its thread, and may not touch it', async () => {
      const open = await fx.notesProject('gql-editor-public', { visibility: 'public' });
      const guest = (await fx.memberClient(open.id, 10)).user;
      const gid = `gid://gitlab/MergeRequest/${open.mergeRequestId}`;
      const internal = await run('mutation($id: NoteableID!) { createNote(input: { noteableId: $id, body: "Between us", internal: true }) { errors note { id internal } } }', { id: gid });
      const noteGid = internal.body.data.createNote.note.id;
      expect(internal.body.data.createNote).toEqual({ errors: [], note: { id: noteGid, internal: true } });

      expect((await run('query($id: NoteID!) { note(id: $id) { id } }', { id: noteGid }, as(guest))).body).toEqual({ data: { note: null } });
      const listed = await run(getMrDiscussionsQuery, { projectPath: open.path, iid: String(open.iid) }, as(guest));
      expect(listed.body.data.project.mergeRequest.discussions.nodes.flatMap((d: any) => d.notes.nodes.map((n: any) => n.id))).not.toContain(noteGid);
      const edit = await run(updateNoteBodyMutation, { noteId: noteGid, body: 'Seen' }, as(guest));
      expect(edit.body.errors?.map((e) => e.message)).toEqual([RESOURCE_NOT_AVAILABLE]);
    });
  });

  describe('bad input', () => {
    it('a value that is no global id, or one of another class, gets GitLab’s coercion message', async () => {
      const notGid = await run(deleteNoteMutation, { noteId: '12' });
      expect(notGid.body.data ?? null).toBeNull();
      expect(notGid.body.errors?.[0]?.message).toContain('"12" is not a valid Global ID');
      const project404 = await run(deleteNoteMutation, { noteId: `gid://gitlab/Project/${project.id}` });
      expect(project404.body.errors?.[0]?.message).toContain(`"gid://gitlab/Project/${project.id}" does not represent an instance of Note`);
      const literal = await run(`mutation { destroyNote(input: { id: "gid://gitlab/MergeRequest/${project.mergeRequestId}" }) { errors } }`, {});
      expect(literal.body.errors?.[0]?.message).toContain(`does not represent an instance of Note`);
      const noteable = await run(createNoteMutation, { issuableId: `gid://gitlab/Project/${project.id}`, body: 'x' });
      expect(noteable.body.errors?.[0]?.message).toContain('does not represent an instance of Noteable');
    });

    it('a blank note, a bad position and an unknown emoji come back in errors and change nothing', async () => {
      const before = await restNotes();
      expect((await run(createNoteMutation, { issuableId: mrGid(), body: '   ' })).body).toEqual({ data: { createNote: { errors: ["Note can't be blank"], note: null } } });
      const position = { baseSha: project.refs.baseSha, headSha: 'f'.repeat(40), startSha: project.refs.startSha, paths: { oldPath: 'lines.txt', newPath: 'lines.txt' }, newLine: 2 };
      const diff = await run(createDiffNoteMutation, { issuableId: mrGid(), body: 'x', position });
      expect(diff.body.data.createDiffNote.note).toBeNull();
      expect(diff.body.data.createDiffNote.errors).toHaveLength(1);
      const award = await run(`mutation { awardEmojiToggle(input: { awardableId: "${mrGid()}", name: "not-an-emoji" }) { errors toggledOn awardEmoji { name } } }`, {});
      expect(award.body).toEqual({ data: { awardEmojiToggle: { errors: ['Name is not a valid emoji name'], toggledOn: false, awardEmoji: null } } });
      expect(await restNotes()).toEqual(before);
    });
  });

  describe('merge request mutations', () => {
    const mr = () => ({ projectPath: project.path, iid: String(project.iid) });

    it('mergeRequestSetDraft marks and unmarks the draft, as the REST API shows', async () => {
      const set = await run('mutation($projectPath: ID!, $iid: String!) { mergeRequestSetDraft(input: { projectPath: $projectPath, iid: $iid, draft: true }) { errors mergeRequest { draft title } } }', mr(), as(developer));
      expect(set.body).toEqual({ data: { mergeRequestSetDraft: { errors: [], mergeRequest: { draft: true, title: 'Draft: Feature' } } } });
      expect((await fx.root.MergeRequests.show(project.id, project.iid)).draft).toBe(true);
      await run('mutation($projectPath: ID!, $iid: String!) { mergeRequestSetDraft(input: { projectPath: $projectPath, iid: $iid, draft: false }) { errors } }', mr(), as(developer));
      expect((await fx.root.MergeRequests.show(project.id, project.iid)).draft).toBe(false);
    });

    it('mergeRequestSetAssignees and mergeRequestSetReviewers replace, append and remove', async () => {
      const assign = (names: string[], mode: string) =>
        run(`mutation($projectPath: ID!, $iid: String!, $names: [String!]!) { mergeRequestSetAssignees(input: { projectPath: $projectPath, iid: $iid, assigneeUsernames: $names, operationMode: ${mode} }) { errors mergeRequest { assignees { nodes { username } } } } }`, { ...mr(), names }, as(developer));
      expect((await assign([developer.username], 'REPLACE')).body.data.mergeRequestSetAssignees).toEqual({ errors: [], mergeRequest: { assignees: { nodes: [{ username: developer.username }] } } });
      const appended = (await assign([reporter.username], 'APPEND')).body.data.mergeRequestSetAssignees.mergeRequest.assignees.nodes.map((n: any) => n.username);
      expect(appended.sort()).toEqual([developer.username, reporter.username].sort());
      expect((await assign([developer.username], 'REMOVE')).body.data.mergeRequestSetAssignees.mergeRequest.assignees.nodes).toEqual([{ username: reporter.username }]);
      expect(((await fx.root.MergeRequests.show(project.id, project.iid)).assignees as Array<{ username: string }>).map((a) => a.username)).toEqual([reporter.username]);

      const review = await run(
        'mutation($projectPath: ID!, $iid: String!, $names: [String!]!) { mergeRequestSetReviewers(input: { projectPath: $projectPath, iid: $iid, reviewerUsernames: $names }) { errors mergeRequest { reviewers { count nodes { username id } } } } }',
        { ...mr(), names: [reporter.username] },
        as(developer),
      );
      expect(review.body.data.mergeRequestSetReviewers).toEqual({ errors: [], mergeRequest: { reviewers: { count: 1, nodes: [{ username: reporter.username, id: `gid://gitlab/User/${reporter.id}` }] } } });
    });

    it('awardEmojiToggle awards, then removes, the caller’s emoji (a mutation is never answered from the cache)', async () => {
      const toggle = `mutation { awardEmojiToggle(input: { awardableId: "${mrGid()}", name: "thumbsup" }) { errors toggledOn awardEmoji { name emoji user { username } } } }`;
      expect((await run(toggle, {}, as(reporter))).body).toEqual({ data: { awardEmojiToggle: { errors: [], toggledOn: true, awardEmoji: { name: 'thumbsup', emoji: '👍', user: { username: reporter.username } } } } });
      expect((await fx.root.MergeRequestAwardEmojis.all(project.id, project.iid)).map((a) => a.name)).toEqual(['thumbsup']);
      expect((await run(toggle, {}, as(reporter))).body).toEqual({ data: { awardEmojiToggle: { errors: [], toggledOn: false, awardEmoji: null } } });
      expect(await fx.root.MergeRequestAwardEmojis.all(project.id, project.iid)).toEqual([]);
    });

    // main is protected: Maintainers merge (root owns the project); a Reporter's refusal is tested above.
    it('mergeRequestAccept with a stale sha is refused in errors; with the head it merges', async () => {
      const stale = await run('mutation($projectPath: ID!, $iid: String!, $sha: String!) { mergeRequestAccept(input: { projectPath: $projectPath, iid: $iid, sha: $sha }) { errors mergeRequest { state } } }', { ...mr(), sha: 'f'.repeat(40) });
      expect(stale.body.data.mergeRequestAccept).toEqual({ errors: ['The merge-head is not at the anticipated SHA'], mergeRequest: { state: 'opened' } });
      const merged = await run('mutation($projectPath: ID!, $iid: String!, $sha: String!) { mergeRequestAccept(input: { projectPath: $projectPath, iid: $iid, sha: $sha }) { errors mergeRequest { state } } }', { ...mr(), sha: project.refs.headSha });
      expect(merged.body).toEqual({ data: { mergeRequestAccept: { errors: [], mergeRequest: { state: 'merged' } } } });
    });
  });

  describe('pages of threads', () => {
    it('GetMrDiscussions follows endCursor page by page, as the extension does', async () => {
      const page = (afterCursor: string | null) =>
        run('query($projectPath: ID!, $iid: String!, $after: String) { project(fullPath: $projectPath) { mergeRequest(iid: $iid) { discussions(first: 2, after: $after) { pageInfo { hasNextPage endCursor } nodes { replyId } } } } }', {
          projectPath: project.path,
          iid: String(project.iid),
          after: afterCursor,
        });
      const all = (await discussions()).nodes.map((d: any) => d.replyId);
      expect(all.length).toBeGreaterThan(2);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (;;) {
        const { discussions: got }: { discussions: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: Array<{ replyId: string }> } } = (await page(cursor)).body.data.project.mergeRequest;
        seen.push(...got.nodes.map((d: any) => d.replyId));
        if (!got.pageInfo.hasNextPage) break;
        cursor = got.pageInfo.endCursor;
      }
      expect(seen).toEqual(all);
      const bad = await page('not-a-cursor');
      expect(bad.body.errors?.[0]?.message).toContain('"cursor" is invalid');
    });
  });

  describe('cookie sessions', () => {
    it('a mutation with the session’s CSRF token runs; without it, or over GET, it is refused and nothing changes', async () => {
      const session = await signIn(fx.server.url, developer.username, developer.password);
      const withCsrf = await run(createNoteMutation, { issuableId: mrGid(), body: 'From the web' }, { session });
      expect(withCsrf.body.data.createNote.errors).toEqual([]);
      const before = await restNotes();
      const withoutCsrf = await run(createNoteMutation, { issuableId: mrGid(), body: 'Forged' }, { session, csrf: false });
      expect(withoutCsrf.status).toBe(403);
      const overGet = await graphql(fx.server.url, createNoteMutation, { issuableId: mrGid(), body: 'Via GET' }, { token: developer.token }, 'GET');
      expect(overGet.status).toBe(405);
      expect(await restNotes()).toEqual(before);
    });
  });
});
