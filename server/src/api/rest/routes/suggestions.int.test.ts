import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFor } from '../../../auth/actor.js';
import { RefConflictError } from '../../../git/errors.js';
import { createCommitWriter } from '../../../domains/repository/commit-writer.js';
import { createRepositoryAccess } from '../../../domains/repository/repository-access.js';
import { createSuggestionsRepository } from '../../../domains/suggestions/suggestions.repository.js';
import { createSuggestionsService } from '../../../domains/suggestions/suggestions.service.js';
import { testDatabaseKind } from '../../../test-support/database.js';
import { LINES, SETUP_TIMEOUT_MS, startNotesFixtures, type Client, type NotesFixtures, type NotesProject } from '../../../test-support/notes-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';

type Suggestion = { id: number; from_line: number; to_line: number; appliable: boolean; applied: boolean; from_content: string; to_content: string; inapplicable_reason: string | null; current_user: { can_apply: boolean } };
type AnyNote = { id: number; body: string; suggestions?: Suggestion[] };
type AnyDiscussion = { id: string; notes: AnyNote[] };

/** The feature branch of the notes fixtures: line 2 changed, a line inserted after it, line 30 changed. */
const FEATURE = LINES.map((line, i) => (i === 1 ? 'line 2 changed' : i === 29 ? 'line 30 changed' : line));
FEATURE.splice(2, 0, 'inserted after 2');

/** Suggested changes through @gitbeaker/rest (Suggestions.edit / editBatch) and the discussions API. */
describe(`suggestions (${testDatabaseKind()})`, () => {
  let fx: NotesFixtures;
  let developer: { user: TestUser; api: Client };
  let reporter: { user: TestUser; api: Client };
  let project: NotesProject;

  /** A diff thread on `lines` of `path` whose body is `body`; returns its first note. */
  async function comment(p: NotesProject, api: Client, body: string, lines: { newLine?: number; oldLine?: number }, path = 'lines.txt'): Promise<AnyNote> {
    const position = { ...p.refs, positionType: 'text', oldPath: path, newPath: path, ...lines };
    const thread = (await api.MergeRequestDiscussions.create(p.id, p.iid, body, { position: position as never })) as unknown as AnyDiscussion;
    return thread.notes[0]!;
  }

  async function fileOn(projectId: number, branch: string, path = 'lines.txt'): Promise<string> {
    return String(await fx.root.RepositoryFiles.showRaw(projectId, path, branch));
  }

  async function noteNow(p: NotesProject, noteId: number, api: Client = fx.root): Promise<AnyNote> {
    const discussions = (await api.MergeRequestDiscussions.all(p.id, p.iid)) as unknown as AnyDiscussion[];
    return discussions.flatMap((discussion) => discussion.notes).find((note) => note.id === noteId)!;
  }

  beforeAll(async () => {
    fx = await startNotesFixtures();
    project = await fx.notesProject('suggestions', { visibility: 'private' });
    developer = await fx.memberClient(project.id, 30);
    reporter = await fx.memberClient(project.id, 20);
  }, SETUP_TIMEOUT_MS);
  afterAll(() => fx?.close());

  it('creates suggestion rows from the fences of a diff comment on a new or unchanged line, none on a removed one', async () => {
    const note = await comment(project, reporter.api, 'Rename it:\n```suggestion:-0+0\nline two\n```\nand\n```suggestion:-1+1\na\nb\n```', { newLine: 5, oldLine: 4 });
    expect(note.suggestions).toEqual([
      { id: expect.any(Number), from_line: 5, to_line: 5, appliable: true, applied: false, from_content: 'line 4\n', to_content: 'line two\n', inapplicable_reason: null, current_user: { can_apply: false } },
      { id: expect.any(Number), from_line: 4, to_line: 6, appliable: true, applied: false, from_content: 'line 3\nline 4\nline 5\n', to_content: 'a\nb\n', inapplicable_reason: null, current_user: { can_apply: false } },
    ]);
    // the same ids on every read; the developer may apply them
    const seen = await noteNow(project, note.id, developer.api);
    expect(seen.suggestions!.map((s) => [s.id, s.current_user.can_apply])).toEqual(note.suggestions!.map((s) => [s.id, true]));
    expect((await comment(project, reporter.api, '```suggestion\nx\n```', { oldLine: 2 })).suggestions).toEqual([]);
    // an edited body replaces the rows
    const edited = await developer.api.MergeRequestDiscussions.all(project.id, project.iid).then(() =>
      reporter.api.MergeRequestNotes.edit(project.id, project.iid, note.id, { body: '```suggestion\nonly one\n```' }),
    );
    expect((edited as unknown as AnyNote).suggestions!.map((s) => s.to_content)).toEqual(['only one\n']);
  });

  it('applies one suggestion as a commit on the source branch: authored and committed by the caller, its author a co-author once', async () => {
    const p = await fx.notesProject('apply-one');
    const dev = await fx.memberClient(p.id, 30);
    const rep = await fx.memberClient(p.id, 20);
    const note = await comment(p, rep.api, '```suggestion\nline 2 suggested\n```', { newLine: 2 });
    const suggestion = note.suggestions![0]!;
    expect(suggestion).toMatchObject({ from_content: 'line 2 changed\n', to_content: 'line 2 suggested\n', appliable: true });
    const before = await fx.tip(p.id, 'feature');

    const applied = (await dev.api.Suggestions.edit(suggestion.id)) as unknown as Suggestion;
    expect(applied).toMatchObject({ id: suggestion.id, applied: true, appliable: false, from_line: 2, to_line: 2 });

    const expected = [...FEATURE];
    expected[1] = 'line 2 suggested';
    expect(await fileOn(p.id, 'feature')).toBe(`${expected.join('\n')}\n`);
    const commit = await fx.root.Commits.show(p.id, 'feature');
    expect(commit.parent_ids).toEqual([before]);
    const users = fx.server.app.services.usersRepository;
    const [author, applier] = await Promise.all([users.findById(rep.user.id), users.findById(dev.user.id)]);
    expect(commit).toMatchObject({ author_name: applier!.name, author_email: applier!.email, committer_name: applier!.name, committer_email: applier!.email });
    expect(commit.message).toBe(`Apply 1 suggestion(s) to 1 file(s)\n\nCo-authored-by: ${author!.name} <${author!.email}>`);
    // the push is recorded as the caller's
    const pushes = await fx.server.app.db.query<{ user_id: number; new_sha: string }>('SELECT user_id, new_sha FROM push_events WHERE project_id = $1 ORDER BY id DESC LIMIT 1', [p.id]);
    expect(pushes.rows[0]).toMatchObject({ user_id: dev.user.id, new_sha: commit.id });

    const shown = (await noteNow(p, note.id)).suggestions![0]!;
    expect(shown).toMatchObject({ applied: true, appliable: false, inapplicable_reason: "Can't apply this suggestion." });
    const again = await fx.call('PUT', `/suggestions/${suggestion.id}/apply`, { token: dev.user.token });
    expect(again).toMatchObject({ status: 400, body: { message: "Can't apply this suggestion." } });
  });

  it("a batch of another user's suggestions, applied by a Developer: git records the Developer as author and committer, and the suggestions' author in one Co-authored-by trailer", async () => {
    const p = await fx.notesProject('apply-for-other');
    const dev = await fx.memberClient(p.id, 30);
    const rep = await fx.memberClient(p.id, 20);
    const first = (await comment(p, rep.api, '```suggestion\nline 2 again\n```', { newLine: 2 })).suggestions![0]!;
    const second = (await comment(p, rep.api, '```suggestion\nline 20 again\n```', { oldLine: 19, newLine: 20 })).suggestions![0]!;
    await dev.api.Suggestions.editBatch([first.id, second.id]);

    const users = fx.server.app.services.usersRepository;
    const [author, applier] = await Promise.all([users.findById(rep.user.id), users.findById(dev.user.id)]);
    // read by git itself: the identities and the parsed trailers of the branch's new tip
    const format = '%an <%ae>%n%cn <%ce>%n%(trailers:only,unfold)';
    const [authorLine, committerLine, ...trailers] = (await fx.rawGit(p.id, ['log', '-1', `--format=${format}`, 'refs/heads/feature'])).toString().trim().split('\n');
    expect(authorLine).toBe(`${applier!.name} <${applier!.email}>`);
    expect(committerLine).toBe(`${applier!.name} <${applier!.email}>`);
    expect(trailers).toEqual([`Co-authored-by: ${author!.name} <${author!.email}>`]);
  });

  it('applies a batch in one commit with a custom message, and refuses overlapping lines', async () => {
    const p = await fx.notesProject('apply-batch');
    const dev = await fx.memberClient(p.id, 30);
    const a = (await comment(p, dev.api, '```suggestion:-0+1\nline 2 and 3 merged\n```', { newLine: 2 })).suggestions![0]!;
    const b = (await comment(p, dev.api, '```suggestion\nline 9 new\n```', { oldLine: 8, newLine: 9 })).suggestions![0]!;
    const c = (await comment(p, dev.api, '```suggestion\nONE\n```', { newLine: 1 }, 'added.txt')).suggestions![0]!;
    const overlapping = (await comment(p, dev.api, '```suggestion:-1+0\nx\n```', { oldLine: 9, newLine: 10 })).suggestions![0]!;

    const refused = await fx.call('PUT', '/suggestions/batch_apply', { token: dev.user.token, body: { ids: [a.id, b.id, overlapping.id] } });
    expect(refused).toMatchObject({ status: 400, body: { message: 'Suggestions are not applicable as their lines cannot overlap.' } });

    const before = await fx.tip(p.id, 'feature');
    const applied = (await dev.api.Suggestions.editBatch([a.id, b.id, c.id], { commitMessage: '%{suggestions_count} by %{username} in %{file_paths}' })) as unknown as Suggestion[];
    expect(applied.map((s) => [s.id, s.applied])).toEqual([
      [a.id, true],
      [b.id, true],
      [c.id, true],
    ]);
    const commit = await fx.root.Commits.show(p.id, 'feature');
    expect(commit.parent_ids).toEqual([before]);
    expect(commit.message).toBe(`3 by ${dev.user.username} in added.txt, lines.txt`);
    const expected = [...FEATURE];
    expected.splice(8, 1, 'line 9 new');
    expected.splice(1, 2, 'line 2 and 3 merged');
    expect(await fileOn(p.id, 'feature')).toBe(`${expected.join('\n')}\n`);
    expect(await fileOn(p.id, 'feature', 'added.txt')).toBe('ONE\ntwo\n');
    // the overlapping one is now stale: its lines changed
    expect(await fx.call('PUT', `/suggestions/${overlapping.id}/apply`, { token: dev.user.token })).toMatchObject({
      status: 400,
      body: { message: "Can't apply as these lines were changed in a more recent version." },
    });
  });

  it('refuses a suggestion whose lines changed since the comment, and one on a closed merge request', async () => {
    const p = await fx.notesProject('stale');
    const dev = await fx.memberClient(p.id, 30);
    const note = await comment(p, dev.api, '```suggestion\nmine\n```', { newLine: 2 });
    const untouched = (await comment(p, dev.api, '```suggestion\nline 20 better\n```', { oldLine: 19, newLine: 20 })).suggestions![0]!;
    const changed = [...FEATURE];
    changed[1] = 'line 2 changed by someone else';
    await fx.root.Commits.create(p.id, 'feature', 'Elsewhere', [{ action: 'update', filePath: 'lines.txt', content: `${changed.join('\n')}\n` }]);

    const shown = (await noteNow(p, note.id)).suggestions![0]!;
    expect(shown).toMatchObject({ appliable: false, inapplicable_reason: "Can't apply as this line was changed in a more recent version." });
    const before = await fx.tip(p.id, 'feature');
    const refused = await fx.call('PUT', `/suggestions/${shown.id}/apply`, { token: dev.user.token });
    expect(refused).toMatchObject({ status: 400, body: { message: "Can't apply as this line was changed in a more recent version." } });
    expect(await fx.tip(p.id, 'feature')).toBe(before);

    await fx.root.MergeRequests.edit(p.id, p.iid, { stateEvent: 'close' });
    const closed = await fx.call('PUT', `/suggestions/${untouched.id}/apply`, { token: dev.user.token });
    expect(closed).toMatchObject({ status: 400, body: { message: 'This merge request is closed. To apply this suggestion, edit this file directly.' } });
  });

  it("answers 404 for another project's suggestion, an unknown id, and a batch with one unknown id", async () => {
    const note = await comment(project, developer.api, '```suggestion\nsecret\n```', { newLine: 2 });
    const id = note.suggestions![0]!.id;
    const stranger = await fx.server.createUser();
    const notFound = { status: 404, body: { message: 'Suggestion is not applicable as the suggestion was not found.' } };
    expect(await fx.call('PUT', `/suggestions/${id}/apply`, { token: stranger.token })).toMatchObject(notFound);
    expect(await fx.call('PUT', '/suggestions/999999999/apply', { token: stranger.token })).toMatchObject(notFound);
    expect(await fx.call('PUT', '/suggestions/abc/apply', { token: developer.user.token })).toMatchObject(notFound);
    expect(await fx.call('PUT', '/suggestions/batch_apply', { token: developer.user.token, body: { ids: [id, 999999999] } })).toMatchObject({
      status: 404,
      body: { message: 'Suggestions are not applicable as one or more suggestions were not found.' },
    });
    expect(await fx.call('PUT', '/suggestions/batch_apply', { token: stranger.token, body: { ids: `${id}` } })).toMatchObject({
      status: 404,
      body: { message: 'Suggestions are not applicable as one or more suggestions were not found.' },
    });
    expect((await fx.call('PUT', '/suggestions/batch_apply', { token: developer.user.token, body: {} })).status).toBe(400);
    expect((await fx.call('PUT', `/suggestions/${id}/apply`, { token: null })).status).toBe(401);
  });

  it('answers 404 to a Guest for a suggestion in an internal note, 403 for one they can read', async () => {
    // a public project: its Guests read merge requests, but not internal notes
    const p = await fx.notesProject('guest', { visibility: 'public' });
    const dev = await fx.memberClient(p.id, 30);
    const guest = await fx.memberClient(p.id, 10);
    const { baseSha: base_sha, startSha: start_sha, headSha: head_sha } = p.refs;
    const position = { base_sha, start_sha, head_sha, position_type: 'text', old_path: 'lines.txt', new_path: 'lines.txt', new_line: 2 };
    const internal = await fx.call('POST', `/projects/${p.id}/merge_requests/${p.iid}/discussions`, {
      token: dev.user.token,
      body: { body: '```suggestion\ninternal\n```', internal: true, position },
    });
    expect(internal.status).toBe(201);
    const hidden = internal.body.notes[0].suggestions[0].id as number;
    expect(await fx.call('PUT', `/suggestions/${hidden}/apply`, { token: guest.user.token })).toMatchObject({
      status: 404,
      body: { message: 'Suggestion is not applicable as the suggestion was not found.' },
    });
    const visible = (await comment(p, dev.api, '```suggestion\nvisible\n```', { newLine: 2 })).suggestions![0]!.id;
    expect((await fx.call('PUT', `/suggestions/${visible}/apply`, { token: guest.user.token })).status).toBe(403);
  });

  it('refuses a Developer when the source branch is protected against their pushes (403)', async () => {
    const p = await fx.notesProject('protected');
    const dev = await fx.memberClient(p.id, 30);
    const note = await comment(p, dev.api, '```suggestion\nprotected\n```', { newLine: 2 });
    const id = note.suggestions![0]!.id;
    expect(note.suggestions![0]!.current_user.can_apply).toBe(true);
    await fx.root.ProtectedBranches.protect(p.id, 'feature', { pushAccessLevel: 40, mergeAccessLevel: 40 });
    const shown = (await noteNow(p, note.id, dev.api)).suggestions![0]!;
    expect(shown.current_user.can_apply).toBe(false);
    const before = await fx.tip(p.id, 'feature');
    expect((await fx.call('PUT', `/suggestions/${id}/apply`, { token: dev.user.token })).status).toBe(403);
    expect(await fx.tip(p.id, 'feature')).toBe(before);
    // a Maintainer may push there, and applies it
    const maintainer = await fx.memberClient(p.id, 40);
    expect((await maintainer.api.Suggestions.edit(id)) as unknown as Suggestion).toMatchObject({ applied: true });
  });

  it('refuses a Reporter (403) and leaves the branch alone', async () => {
    const note = await comment(project, reporter.api, '```suggestion\nby a reporter\n```', { newLine: 3 });
    const before = await fx.tip(project.id, 'feature');
    const refused = await fx.call('PUT', `/suggestions/${note.suggestions![0]!.id}/apply`, { token: reporter.user.token });
    expect(refused.status).toBe(403);
    expect(await fx.tip(project.id, 'feature')).toBe(before);
  });

  it('refuses a suggestion whose commit breaks the push rule, with its message, and leaves the branch alone', async () => {
    const p = await fx.notesProject('apply-push-rule');
    const dev = await fx.memberClient(p.id, 30);
    await fx.root.ProjectPushRules.create(p.id, { commitMessageRegex: '^JIRA-\\d+' });
    const note = await comment(p, dev.api, '```suggestion\nline 2 by rule\n```', { newLine: 2 });
    const before = await fx.tip(p.id, 'feature');
    const refused = await fx.call('PUT', `/suggestions/${note.suggestions![0]!.id}/apply`, { token: dev.user.token });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: "Commit message does not follow the pattern '^JIRA-\\d+'" });
    expect(await fx.tip(p.id, 'feature')).toBe(before);
    const applied = await fx.call('PUT', `/suggestions/${note.suggestions![0]!.id}/apply`, { token: dev.user.token, body: { commit_message: 'JIRA-3 apply it' } });
    expect(applied.status).toBe(200);
  });

  it('refuses by compare-and-swap when the branch moves while the commit is being built', async () => {
    const p = await fx.notesProject('race');
    const dev = await fx.memberClient(p.id, 30);
    const suggestion = (await comment(p, dev.api, '```suggestion\nline 2 raced\n```', { newLine: 2 })).suggestions![0]!;
    const { app } = fx.server;
    const services = app.services;
    const access = createRepositoryAccess({ projects: services.projects, authorizer: app.authorizer, storage: services.storage });
    const writer = createCommitWriter({ access, protectedBranches: services.protectedBranches, pushes: services.pushes });
    let concurrent = '';
    const racing = createSuggestionsService({
      suggestions: createSuggestionsRepository(app.db),
      mergeRequests: services.mergeRequests,
      projects: services.projects,
      access,
      protectedBranches: services.protectedBranches,
      storage: services.storage,
      // someone pushes to the branch after the tree was built from the tip, before the ref moves
      writer: {
        writeTree: (actor, handle, input) =>
          writer.writeTree(actor, handle, {
            ...input,
            plan: async (tip) => {
              const tree = await input.plan(tip);
              const pushed = await fx.root.Commits.create(p.id, 'feature', 'Concurrent', [{ action: 'create', filePath: 'other.txt', content: 'x\n' }]);
              concurrent = pushed.id;
              return tree;
            },
          }),
      },
    });
    const user = await services.usersRepository.findById(dev.user.id);
    await expect(racing.apply(actorFor(user!, 'session'), [suggestion.id], { batch: false })).rejects.toBeInstanceOf(RefConflictError);
    expect(await fx.tip(p.id, 'feature')).toBe(concurrent);
    expect(await fileOn(p.id, 'feature')).toBe(`${FEATURE.join('\n')}\n`);
    expect((await fx.call('GET', `/projects/${p.id}/merge_requests/${p.iid}/discussions`)).body.flatMap((d: AnyDiscussion) => d.notes).find((n: AnyNote) => n.suggestions?.length)?.suggestions[0]).toMatchObject({ applied: false, appliable: true });
    // the real service applies it on top of the new tip
    await dev.api.Suggestions.edit(suggestion.id);
    expect((await fx.root.Commits.show(p.id, 'feature')).parent_ids).toEqual([concurrent]);
  });

  it('handles an option-like source branch name as data', async () => {
    const p = await fx.createProject('option-branch');
    await fx.root.Commits.create(p.id, 'main', 'File', [{ action: 'create', filePath: 'f.txt', content: 'a\nb\n' }]);
    const branch = 'fix/--force';
    await fx.root.Branches.create(p.id, branch, 'main');
    await fx.root.Commits.create(p.id, branch, 'Change', [{ action: 'update', filePath: 'f.txt', content: 'a\nB\n' }]);
    const mr = await fx.root.MergeRequests.create(p.id, branch, 'main', 'Odd branch');
    const [version] = await fx.root.MergeRequests.allDiffVersions(p.id, mr.iid);
    const np: NotesProject = { id: p.id, path: p.path_with_namespace, iid: mr.iid, mergeRequestId: mr.id, refs: { baseSha: version!.base_commit_sha, startSha: version!.start_commit_sha, headSha: version!.head_commit_sha } };
    const note = await comment(np, fx.root, '```suggestion\nbee\n```', { newLine: 2 }, 'f.txt');
    await fx.root.Suggestions.edit(note.suggestions![0]!.id);
    expect(await fileOn(p.id, branch, 'f.txt')).toBe('a\nbee\n');
    expect(await fx.tip(p.id, 'main')).not.toBe(await fx.tip(p.id, branch));
  });
});
