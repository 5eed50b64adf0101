import type { EditProjectOptions } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitbeakerClient } from '../../../test-support/server.js';

/** The project settings for merging, through gitbeaker's Projects.edit and plain PUTs. */
describe(`project merge settings (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('merge-settings');
  });
  afterAll(() => fx?.close());

  it('has GitLab’s defaults', async () => {
    expect(await fx.root.Projects.show(project.id)).toMatchObject({
      merge_method: 'merge',
      squash_option: 'default_off',
      merge_commit_template: null,
      squash_commit_template: null,
      merge_request_title_regex: null,
      merge_request_title_regex_description: null,
      only_allow_merge_if_all_discussions_are_resolved: false,
    });
  });

  it('stores every merge setting a Maintainer sends, and clears text settings sent empty', async () => {
    // GitLab's merge_request_title_regex(_description) are missing from gitbeaker's EditProjectOptions
    const settings: EditProjectOptions & { mergeRequestTitleRegex: string; mergeRequestTitleRegexDescription: string } = {
      mergeMethod: 'ff',
      squashOption: 'always',
      mergeCommitTemplate: "Merge '%{source_branch}' into '%{target_branch}'\n\n%{title}",
      squashCommitTemplate: '%{title}',
      mergeRequestTitleRegex: '^(feat|fix): ',
      mergeRequestTitleRegexDescription: 'Start with feat: or fix:',
      onlyAllowMergeIfAllDiscussionsAreResolved: true,
    };
    const edited = await fx.root.Projects.edit(project.id, settings);
    const expected = {
      merge_method: 'ff',
      squash_option: 'always',
      merge_commit_template: "Merge '%{source_branch}' into '%{target_branch}'\n\n%{title}",
      squash_commit_template: '%{title}',
      merge_request_title_regex: '^(feat|fix): ',
      merge_request_title_regex_description: 'Start with feat: or fix:',
      only_allow_merge_if_all_discussions_are_resolved: true,
    };
    expect(edited).toMatchObject(expected);
    expect(await fx.root.Projects.show(project.id)).toMatchObject(expected);

    const cleared = await fx.call('PUT', `/projects/${project.id}`, { body: { squash_commit_template: '', merge_commit_template: null, merge_method: 'rebase_merge' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ squash_commit_template: null, merge_commit_template: null, merge_method: 'rebase_merge', merge_request_title_regex: '^(feat|fix): ' });
  });

  it('refuses a title regex without its description, and a description without a regex', async () => {
    const other = await fx.createProject('merge-settings-pair');
    const alone = await fx.call('PUT', `/projects/${other.id}`, { body: { merge_request_title_regex: '^feat' } });
    expect(alone.status).toBe(400);
    expect(alone.body).toEqual({
      message: {
        merge_request_title_regex: ['and regex description must be either both set, or neither.'],
        merge_request_title_regex_description: ['and regex must be either both set, or neither.'],
      },
    });
    expect((await fx.call('PUT', `/projects/${other.id}`, { body: { merge_request_title_regex_description: 'Why' } })).status).toBe(400);
    // Clearing only the description of a project that has both is refused the same way.
    expect((await fx.call('PUT', `/projects/${project.id}`, { body: { merge_request_title_regex_description: '' } })).status).toBe(400);
    expect((await fx.root.Projects.show(other.id)).merge_request_title_regex).toBeNull();
  });

  it('refuses a pattern RE2 cannot run, and oversized templates, changing nothing', async () => {
    const before = await fx.root.Projects.show(project.id);
    const bad = await fx.call('PUT', `/projects/${project.id}`, { body: { merge_request_title_regex: '(?<=x)y', merge_method: 'merge' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message.merge_request_title_regex[0]).toMatch(/^not valid RE2 syntax: /);
    const long = await fx.call('PUT', `/projects/${project.id}`, { body: { merge_commit_template: 'x'.repeat(501) } });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ message: { merge_commit_template: ['is too long (maximum is 500 characters)'] } });
    expect((await fx.call('PUT', `/projects/${project.id}`, { body: { merge_method: 'sideways' } })).status).toBe(400);
    expect(await fx.root.Projects.show(project.id)).toMatchObject({ merge_method: before.merge_method, merge_request_title_regex: before.merge_request_title_regex });
  });

  it('lets only Maintainers change them', async () => {
    const developer = await fx.member(project.id, 30);
    const api = gitbeakerClient(fx.server.url, developer.token);
    await expect(api.Projects.edit(project.id, { mergeMethod: 'merge' })).rejects.toMatchObject({ cause: { response: { status: 403 } } });
    expect((await fx.root.Projects.show(project.id)).merge_method).toBe('rebase_merge');
  });
});
