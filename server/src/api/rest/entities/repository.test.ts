import { describe, expect, it } from 'vitest';
import type { GitCommit } from '../../../git/commit-format.js';
import type { FileDiff } from '../../../git/diff.js';
import { branchEntity, refUrlPath, tagEntity } from './branches.js';
import { commitDetail, commitEntity, compareEntity, diffEntity } from './commits.js';
import { fileEntity, fileHeaders, treeEntryEntity } from './files.js';
import { protectedBranchEntity } from './protected-branches.js';

const urls = { web: (path: string) => `https://code.example/${path}` };
const project = { id: 7, full_path: 'group/app' };
const when = new Date('2024-05-06T07:08:09Z');
const commit: GitCommit = {
  id: 'a'.repeat(40),
  short_id: 'aaaaaaaa',
  title: 'Fix it',
  message: 'Fix it\n\nLonger.\n',
  author_name: 'Ada',
  author_email: 'ada@example.com',
  authored_date: when,
  committer_name: 'Bob',
  committer_email: 'bob@example.com',
  committed_date: when,
  created_at: when,
  parent_ids: ['b'.repeat(40)],
};

describe('commit entities', () => {
  it('shapes Entities::Commit with ISO dates and the commit URL', () => {
    expect(commitEntity(commit, project, urls)).toEqual({
      id: commit.id,
      short_id: 'aaaaaaaa',
      created_at: '2024-05-06T07:08:09.000Z',
      parent_ids: ['b'.repeat(40)],
      title: 'Fix it',
      message: 'Fix it\n\nLonger.\n',
      author_name: 'Ada',
      author_email: 'ada@example.com',
      authored_date: '2024-05-06T07:08:09.000Z',
      committer_name: 'Bob',
      committer_email: 'bob@example.com',
      committed_date: '2024-05-06T07:08:09.000Z',
      trailers: {},
      extended_trailers: {},
      web_url: `https://code.example/group/app/-/commit/${commit.id}`,
    });
  });

  it('adds stats, status and project id for the detail, and leaves stats out when not asked', () => {
    expect(commitDetail(commit, { additions: 1, deletions: 2, total: 3 }, project, urls)).toMatchObject({ stats: { total: 3 }, status: null, project_id: 7, last_pipeline: null });
    expect(commitDetail(commit, null, project, urls)).not.toHaveProperty('stats');
  });

  it('keeps GitLab diff fields and drops our own', () => {
    const diff = { old_path: 'a', new_path: 'b', a_mode: '100644', b_mode: '100644', new_file: false, renamed_file: true, deleted_file: false, generated_file: false, diff: '@@', too_large: false, collapsed: false, binary: false, old_id: 'x', new_id: 'y', added_lines: 1, removed_lines: 0 } satisfies FileDiff;
    expect(Object.keys(diffEntity(diff)).sort()).toEqual(['a_mode', 'b_mode', 'collapsed', 'deleted_file', 'diff', 'generated_file', 'new_file', 'new_path', 'old_path', 'renamed_file', 'too_large']);
  });

  it('names the newest commit of a comparison and links the compare page', () => {
    const compared = compareEntity({ diffs: [], overflow: false, fromSha: 'f', toSha: 't', baseSha: 'f', commits: [{ ...commit, id: '1'.repeat(40) }, commit], commitsOverflow: false, sameRef: false }, { from: 'main', to: 'feature/x' }, project, urls);
    expect(compared.commit?.id).toBe(commit.id);
    expect(compared.web_url).toBe('https://code.example/group/app/-/compare/main...feature%2Fx');
    expect(compareEntity({ diffs: [], overflow: false, fromSha: 'f', toSha: 'f', baseSha: 'f', commits: [], commitsOverflow: false, sameRef: true }, { from: 'a', to: 'a' }, project, urls)).toMatchObject({ commit: null, compare_same_ref: true });
  });
});

describe('branch and tag entities', () => {
  it('links the tree of a branch, keeping its slashes', () => {
    const branch = { name: 'feature/ü x', commit, merged: false, protected: true, developers_can_push: false, developers_can_merge: true, can_push: false, default: false };
    expect(branchEntity(branch, project, urls)).toMatchObject({ name: 'feature/ü x', protected: true, developers_can_merge: true, web_url: 'https://code.example/group/app/-/tree/feature/%C3%BC%20x', commit: { id: commit.id } });
    expect(refUrlPath('a/b')).toBe('a/b');
  });

  it('shapes lightweight and annotated tags', () => {
    expect(tagEntity({ name: 'v1', target: commit.id, message: null, commit, created_at: null }, project, urls)).toMatchObject({ message: null, created_at: null, release: null, protected: false });
    expect(tagEntity({ name: 'v2', target: 'c'.repeat(40), message: 'Release', commit: null, created_at: when }, project, urls)).toMatchObject({ commit: null, created_at: '2024-05-06T07:08:09.000Z' });
  });
});

describe('protected branch entity', () => {
  it('splits rules by kind into GitLab access level items', () => {
    const entity = protectedBranchEntity({
      id: 1,
      project_id: 7,
      name: 'main',
      allow_force_push: false,
      code_owner_approval_required: false,
      rules: [
        { id: 2, kind: 'push', access_level: 40, user_id: null, group_id: null, description: 'Maintainers' },
        { id: 3, kind: 'merge', access_level: null, user_id: 9, group_id: null, description: 'Ada' },
      ],
    });
    expect(entity).toEqual({
      id: 1,
      name: 'main',
      push_access_levels: [{ id: 2, access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null, deploy_key_id: null }],
      merge_access_levels: [{ id: 3, access_level: null, access_level_description: 'Ada', user_id: 9, group_id: null, deploy_key_id: null }],
      unprotect_access_levels: [],
      allow_force_push: false,
      code_owner_approval_required: false,
      inherited: false,
    });
  });
});

describe('file entities', () => {
  const file = {
    file_name: 'naïve.txt',
    file_path: 'docs/naïve.txt',
    size: 3,
    encoding: 'base64' as const,
    content_sha256: 'f'.repeat(64),
    ref: 'main',
    blob_id: 'b'.repeat(40),
    commit_id: 'c'.repeat(40),
    last_commit_id: null,
    execute_filemode: false,
    content: Buffer.from('abc'),
  };

  it('base64-encodes content', () => {
    expect(fileEntity(file)).toMatchObject({ content: 'YWJj', encoding: 'base64', last_commit_id: null });
  });

  it('sends metadata as X-Gitlab-* headers, percent-encoding what is not plain ASCII', () => {
    expect(fileHeaders(file)).toMatchObject({
      'x-gitlab-file-name': 'na%C3%AFve.txt',
      'x-gitlab-file-path': 'docs%2Fna%C3%AFve.txt',
      'x-gitlab-size': '3',
      'x-gitlab-ref': 'main',
      'x-gitlab-last-commit-id': '',
      'x-gitlab-execute-filemode': 'false',
      'x-gitlab-content-sha256': 'f'.repeat(64),
    });
  });

  it('keeps only GitLab tree entry fields', () => {
    expect(treeEntryEntity({ id: 'x', name: 'a', type: 'blob', path: 'd/a', mode: '120000', size: 4 })).toEqual({ id: 'x', name: 'a', type: 'blob', path: 'd/a', mode: '120000' });
  });
});
