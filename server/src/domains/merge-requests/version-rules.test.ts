import { describe, expect, it } from 'vitest';
import type { FileDiff } from '../../git/index.js';
import { decideVersion, fileKey, fileRows, summarizeVersion, type VersionFacts } from './version-rules.js';

const facts = (overrides: Partial<VersionFacts>): VersionFacts => ({
  state: 'opened',
  latest: { head_commit_sha: 'h1', start_commit_sha: 's1' },
  sourceHead: 'h1',
  targetHead: 's1',
  retargeted: false,
  ...overrides,
});

describe('decideVersion', () => {
  it.each([
    ['the first version of a new merge request', { latest: null }, 'record'],
    ['a push that moved the source branch', { sourceHead: 'h2' }, 'record'],
    ['a force push that rewrote the source branch', { sourceHead: 'rewritten' }, 'record'],
    ['a push to the target branch only (GitLab keeps the version)', { targetHead: 's2' }, 'unchanged'],
    ['the same push delivered twice', {}, 'unchanged'],
    ['a retarget to a branch at another commit', { retargeted: true, targetHead: 's2' }, 'record'],
    ['a retarget to a branch at the same commit', { retargeted: true }, 'unchanged'],
    ['a deleted source branch', { sourceHead: null }, 'source-missing'],
    ['a deleted target branch', { targetHead: null }, 'target-missing'],
    ['a closed merge request', { state: 'closed', sourceHead: 'h2' }, 'not-open'],
    ['a merged merge request', { state: 'merged', sourceHead: 'h2' }, 'not-open'],
  ] as const)('%s → %s', (_name, overrides, expected) => {
    expect(decideVersion(facts(overrides as Partial<VersionFacts>))).toBe(expected);
  });
});

const file = (overrides: Partial<FileDiff>): FileDiff => ({
  old_path: 'a.txt',
  new_path: 'a.txt',
  a_mode: '100644',
  b_mode: '100644',
  new_file: false,
  renamed_file: false,
  deleted_file: false,
  generated_file: false,
  diff: '@@ -1 +1 @@\n-a\n+b\n',
  too_large: false,
  collapsed: false,
  binary: false,
  old_id: '1'.repeat(40),
  new_id: '2'.repeat(40),
  added_lines: 1,
  removed_lines: 1,
  ...overrides,
});

describe('summarizeVersion and fileRows', () => {
  it('counts files and lines', () => {
    expect(summarizeVersion([file({}), file({ new_path: 'b', added_lines: 3, removed_lines: 0 })], false)).toEqual({
      state: 'collected',
      real_size: '2',
      files_count: 2,
      added_lines: 4,
      removed_lines: 1,
    });
  });

  it('marks an empty diff and an overflowing one as GitLab does', () => {
    expect(summarizeVersion([], false)).toMatchObject({ state: 'empty', real_size: '0' });
    expect(summarizeVersion([file({})], true)).toMatchObject({ state: 'overflow', real_size: '1+' });
  });

  it('stores the flags and blob ids, not the text', () => {
    const [row] = fileRows([file({ binary: true, too_large: true, collapsed: true })]);
    expect(row).toEqual({
      relative_order: 0,
      old_path: 'a.txt',
      new_path: 'a.txt',
      a_mode: '100644',
      b_mode: '100644',
      new_file: false,
      renamed_file: false,
      deleted_file: false,
      too_large: true,
      collapsed: true,
      binary: true,
      old_blob_id: '1'.repeat(40),
      new_blob_id: '2'.repeat(40),
      added_lines: 1,
      removed_lines: 1,
    });
  });

  it('tells the halves of a type change apart by key', () => {
    expect(fileKey(file({ deleted_file: true }))).not.toBe(fileKey(file({ new_file: true })));
    expect(fileKey(file({}))).toBe(fileKey(fileRows([file({})])[0]!));
  });
});
