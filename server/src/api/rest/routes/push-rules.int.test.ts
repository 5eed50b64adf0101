import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitCli, type GitCli, type TestUser } from '../../../test-support/server.js';

/**
 * Push rules: /projects/:id/push_rule through gitbeaker's ProjectPushRules (Maintainers and
 * above), enforced on `git push` by the pre-receive hook with GitLab's messages, and on the
 * API's own writes (files, commits, branches).
 */
describe(`push rules (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let stranger: TestUser;
  const clis: GitCli[] = [];

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('ruled');
    developer = await fx.member(project.id, 30);
    stranger = await fx.server.createUser();
  });
  afterAll(async () => {
    for (const cli of clis) await cli.close();
    await fx?.close();
  });

  const setRule = async (rule: Record<string, unknown>) => {
    await fx.call('DELETE', `/projects/${project.id}/push_rule`);
    const created = await fx.call('POST', `/projects/${project.id}/push_rule`, { body: rule });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  };

  /** A clone as the Developer, with one new commit made by `commit` (files and message). */
  async function cloneWithCommit(dir: string, commit: { message: string; files?: Record<string, string>; email?: string }) {
    const cli = gitCli({ url: fx.server.url, username: developer.username, password: developer.token, email: commit.email ?? `${developer.username}@example.com` });
    clis.push(cli);
    await cli.git(['clone', '-q', cli.repoUrl(project.path_with_namespace), dir]);
    for (const [path, content] of Object.entries(commit.files ?? {})) {
      const { writeFileSync, mkdirSync } = await import('node:fs');
      const { dirname, join } = await import('node:path');
      mkdirSync(dirname(join(cli.dir, dir, path)), { recursive: true });
      writeFileSync(join(cli.dir, dir, path), content);
    }
    await cli.git(['add', '-A'], { cwd: dir });
    await cli.git(['commit', '-q', '--allow-empty', '-m', commit.message], { cwd: dir });
    return { push: (...refspecs: string[]) => cli.git(['push', 'origin', ...refspecs], { cwd: dir, allowFailure: true }) };
  }

  describe('the API', () => {
    it('answers null without a rule, creates one (201), refuses a second (422), edits and deletes it', async () => {
      const none = await fx.call('GET', `/projects/${project.id}/push_rule`);
      expect(none.status).toBe(200);
      expect(none.body).toBeNull();
      const created = await fx.root.ProjectPushRules.create(project.id, { commitMessageRegex: '^JIRA-\\d+', denyDeleteTag: true, maxFileSize: 2 });
      expect(created).toMatchObject({ project_id: project.id, commit_message_regex: '^JIRA-\\d+', deny_delete_tag: true, max_file_size: 2, member_check: false, branch_name_regex: null });
      const again = await fx.call('POST', `/projects/${project.id}/push_rule`, { body: { member_check: true } });
      expect(again.status).toBe(422);
      expect(again.body).toEqual({ message: 'Project push rule exists' });
      const edited = await fx.root.ProjectPushRules.edit(project.id, { branchNameRegex: '^(main|feature/.+)$', commitMessageRegex: '' });
      expect(edited).toMatchObject({ branch_name_regex: '^(main|feature/.+)$', commit_message_regex: null, deny_delete_tag: true });
      expect(await fx.root.ProjectPushRules.show(project.id)).toMatchObject({ id: created.id, branch_name_regex: '^(main|feature/.+)$' });
      await fx.root.ProjectPushRules.remove(project.id);
      expect((await fx.call('GET', `/projects/${project.id}/push_rule`)).body).toBeNull();
      expect((await fx.call('DELETE', `/projects/${project.id}/push_rule`)).status).toBe(404);
      expect((await fx.call('PUT', `/projects/${project.id}/push_rule`, { body: { member_check: true } })).status).toBe(404);
    });

    it.each([
      [{ branch_name_regex: '(a' }, { branch_name_regex: ['not valid RE2 syntax: error parsing regexp: missing closing ): `(a`'] }],
      [{ commit_message_regex: '(?<=x)y' }, null],
      [{ max_file_size: -1 }, { max_file_size: ['must be greater than or equal to 0'] }],
      [{}, null],
    ])('refuses %j with a 400 and creates nothing', async (body, message) => {
      const refused = await fx.call('POST', `/projects/${project.id}/push_rule`, { body });
      expect(refused.status).toBe(400);
      if (message) expect(refused.body).toEqual({ message });
      expect((await fx.call('GET', `/projects/${project.id}/push_rule`)).body).toBeNull();
    });

    it('is for Maintainers: a Developer gets 403, a stranger 404', async () => {
      for (const [method, body] of [['GET', undefined], ['POST', { member_check: true }], ['PUT', { member_check: true }], ['DELETE', undefined]] as const) {
        expect((await fx.call(method, `/projects/${project.id}/push_rule`, { token: developer.token, body })).status).toBe(403);
        expect((await fx.call(method, `/projects/${project.id}/push_rule`, { token: stranger.token, body })).status).toBe(404);
      }
    });
  });

  describe('git push', () => {
    it('refuses a branch whose name does not follow the pattern, with GitLab’s message', async () => {
      await setRule({ branch_name_regex: '^feature/' });
      const clone = await cloneWithCommit('branch-name', { message: 'work' });
      const refused = await clone.push('HEAD:refs/heads/wip');
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("remote: Branch name 'wip' does not follow the pattern '^feature/'");
      expect((await clone.push('HEAD:refs/heads/feature/ok')).code).toBe(0);
    });

    it('refuses a commit message that does not follow the pattern, or contains the forbidden one', async () => {
      await setRule({ commit_message_regex: '^JIRA-\\d+', commit_message_negative_regex: 'fixup!' });
      const bad = await cloneWithCommit('message-bad', { message: 'no ticket' });
      const refused = await bad.push('HEAD:refs/heads/topic-message');
      expect(refused.stderr).toContain("remote: Commit message does not follow the pattern '^JIRA-\\d+'");
      const forbidden = await cloneWithCommit('message-forbidden', { message: 'JIRA-1 fixup! earlier' });
      expect((await forbidden.push('HEAD:refs/heads/topic-message')).stderr).toContain("remote: Commit message contains the forbidden pattern 'fixup!'");
      const good = await cloneWithCommit('message-good', { message: 'JIRA-12 a ticket' });
      expect((await good.push('HEAD:refs/heads/topic-message')).code).toBe(0);
    });

    it('refuses an email that does not follow the pattern and a committer who is not the pusher', async () => {
      await setRule({ author_email_regex: '@example\\.com$' });
      const outside = await cloneWithCommit('email', { message: 'from outside', email: 'someone@elsewhere.org' });
      expect((await outside.push('HEAD:refs/heads/topic-email')).stderr).toContain("remote: Committer's email 'someone@elsewhere.org' does not follow the pattern '@example\\.com$'");
      await setRule({ commit_committer_check: true });
      const other = await cloneWithCommit('committer', { message: 'as another', email: 'other@example.com' });
      expect((await other.push('HEAD:refs/heads/topic-committer')).stderr).toContain(
        "remote: You cannot push commits for 'other@example.com'. You can only push commits if the committer email is one of your own verified emails.",
      );
    });

    it('refuses prohibited file names, secrets and files above the size limit', async () => {
      await setRule({ file_name_regex: '\\.exe$', prevent_secrets: true, max_file_size: 1 });
      const exe = await cloneWithCommit('exe', { message: 'a tool', files: { 'bin/tool.exe': 'MZ' } });
      expect((await exe.push('HEAD:refs/heads/topic-files')).stderr).toContain('remote: File name bin/tool.exe was prohibited by the pattern "\\\\.exe$".');
      const key = await cloneWithCommit('secret', { message: 'a key', files: { '.ssh/id_rsa': 'secret' } });
      expect((await key.push('HEAD:refs/heads/topic-files')).stderr).toContain('remote: File name .ssh/id_rsa was prohibited by the pattern "id_rsa$".');
      const big = await cloneWithCommit('big', { message: 'big', files: { 'data.bin': 'x'.repeat(1024 * 1024 + 1) } });
      expect((await big.push('HEAD:refs/heads/topic-files')).stderr).toContain('remote: File "data.bin" is larger than the allowed size of 1 MB. Use Git LFS to manage this file.');
      const fine = await cloneWithCommit('fine', { message: 'fine', files: { 'notes.txt': 'ok' } });
      expect((await fine.push('HEAD:refs/heads/topic-files')).code).toBe(0);
    });

    it('refuses deleting a tag over git when deny_delete_tag is set', async () => {
      await fx.call('DELETE', `/projects/${project.id}/push_rule`);
      await fx.root.Tags.create(project.id, 'v1', 'main');
      await setRule({ deny_delete_tag: true });
      const clone = await cloneWithCommit('tags', { message: 'x' });
      const refused = await clone.push(':refs/tags/v1');
      expect(refused.stderr).toContain('remote: You cannot delete a tag');
      expect((await fx.call('GET', `/projects/${project.id}/repository/tags/v1`)).status).toBe(200);
    });
  });

  describe('the API’s writes', () => {
    it('refuses a file commit, a commit and a branch that break the rule, with a 400 and the message; nothing is written', async () => {
      await setRule({ commit_message_regex: '^JIRA-\\d+', branch_name_regex: '^feature/' });
      const before = await fx.bareGit(project.id, ['rev-parse', 'main']);
      // (main is protected: the project's owner writes to it)
      const file = await fx.call('POST', `/projects/${project.id}/repository/files/new.txt`, {
        body: { branch: 'main', content: 'x', commit_message: 'no ticket' },
      });
      expect(file.status).toBe(400);
      expect(file.body).toEqual({ message: "Commit message does not follow the pattern '^JIRA-\\d+'" });
      const commit = await fx.call('POST', `/projects/${project.id}/repository/commits`, {
        body: { branch: 'main', commit_message: 'still none', actions: [{ action: 'create', file_path: 'c.txt', content: 'c' }] },
      });
      expect(commit.status).toBe(400);
      expect(await fx.bareGit(project.id, ['rev-parse', 'main'])).toBe(before);
      const branch = await fx.call('POST', `/projects/${project.id}/repository/branches`, { token: developer.token, body: { branch: 'wip', ref: 'main' } });
      expect(branch.status).toBe(400);
      expect(branch.body).toEqual({ message: "Branch name 'wip' does not follow the pattern '^feature/'" });
      expect((await fx.call('GET', `/projects/${project.id}/repository/branches/wip`)).status).toBe(404);
      const ok = await fx.call('POST', `/projects/${project.id}/repository/files/ok.txt`, { body: { branch: 'main', content: 'x', commit_message: 'JIRA-7 fine' } });
      expect(ok.status).toBe(201);
    });
  });
});
