import { describe, expect, it } from 'vitest';
import { indexInfo, pathsToInspect, planCommitActions, type CommitAction, type ExistingEntry } from './commit-actions.js';
import { CommitActionError, InvalidTreePathError } from './errors.js';

const BLOB = 'b'.repeat(40);
const LINK = 'l'.repeat(40);
const ZERO = '0'.repeat(40);

// The start tree: README.md, run.sh (executable), link (symlink), src/ (a directory), vendor/lib (a submodule).
const EXISTING = new Map<string, ExistingEntry>([
  ['README.md', { mode: '100644', id: BLOB, type: 'blob' }],
  ['run.sh', { mode: '100755', id: BLOB, type: 'blob' }],
  ['link', { mode: '120000', id: LINK, type: 'blob' }],
  ['src', { mode: '040000', id: 't'.repeat(40), type: 'tree' }],
  ['src/a.txt', { mode: '100644', id: BLOB, type: 'blob' }],
  ['vendor', { mode: '040000', id: 'v'.repeat(40), type: 'tree' }],
  ['vendor/lib', { mode: '160000', id: 'c'.repeat(40), type: 'commit' }],
]);

const content = (text: string) => Buffer.from(text);
const plan = (...actions: CommitAction[]) => planCommitActions(actions, EXISTING);
const failure = (...actions: CommitAction[]) => {
  try {
    plan(...actions);
  } catch (error) {
    return [(error as Error).constructor.name, (error as Error).message];
  }
  return null;
};

describe('planCommitActions', () => {
  it('creates, updates, deletes, moves and chmods', () => {
    expect(
      plan(
        { action: 'create', file_path: 'docs/new.md', content: content('new') },
        { action: 'update', file_path: 'README.md', content: content('readme') },
        { action: 'delete', file_path: 'src/a.txt' },
        { action: 'move', file_path: 'bin/run.sh', previous_path: 'run.sh' },
        { action: 'chmod', file_path: 'README.md', execute_filemode: true },
      ),
    ).toEqual([
      { path: 'docs/new.md', mode: '100644', content: content('new') },
      { path: 'README.md', mode: '100644', content: content('readme') },
      { path: 'src/a.txt', remove: true },
      { path: 'run.sh', remove: true },
      { path: 'bin/run.sh', mode: '100755', id: BLOB },
      { path: 'README.md', mode: '100755', content: content('readme') },
    ]);
  });

  it('lets later actions see earlier ones', () => {
    expect(plan({ action: 'create', file_path: 'x.txt', content: content('1') }, { action: 'update', file_path: 'x.txt', content: content('2') })).toHaveLength(2);
    expect(plan({ action: 'delete', file_path: 'README.md' }, { action: 'create', file_path: 'README.md' })).toHaveLength(2);
    expect(failure({ action: 'delete', file_path: 'README.md' }, { action: 'update', file_path: 'README.md' })).toEqual(['CommitActionError', "A file with this name doesn't exist"]);
  });

  it('creates executables on request and keeps modes on update', () => {
    expect(plan({ action: 'create', file_path: 'x.sh', execute_filemode: true })[0]).toMatchObject({ mode: '100755' });
    expect(plan({ action: 'update', file_path: 'run.sh', content: content('x') })[0]).toMatchObject({ mode: '100755' });
    expect(plan({ action: 'update', file_path: 'run.sh', content: content('x'), execute_filemode: false })[0]).toMatchObject({ mode: '100644' });
  });

  it('writes a regular file where a symlink was, never through it', () => {
    expect(plan({ action: 'update', file_path: 'link', content: content('/root/.ssh/authorized_keys') })[0]).toEqual({ path: 'link', mode: '100644', content: content('/root/.ssh/authorized_keys') });
    expect(plan({ action: 'move', file_path: 'link2', previous_path: 'link' })[1]).toEqual({ path: 'link2', mode: '120000', id: LINK });
    expect(plan({ action: 'move', file_path: 'link2', previous_path: 'link', content: content('x') })[1]).toMatchObject({ mode: '100644' });
  });

  it.each<[string, CommitAction[], [string, string]]>([
    ['create on an existing file', [{ action: 'create', file_path: 'README.md' }], ['CommitActionError', 'A file with this name already exists']],
    ['create on a directory', [{ action: 'create', file_path: 'src' }], ['CommitActionError', 'A directory with this name already exists']],
    ['create under a file', [{ action: 'create', file_path: 'README.md/x' }], ['CommitActionError', 'A file with this name already exists']],
    ['create under a submodule', [{ action: 'create', file_path: 'vendor/lib/x' }], ['CommitActionError', 'A file with this name already exists']],
    ['update a missing file', [{ action: 'update', file_path: 'nope.txt' }], ['CommitActionError', "A file with this name doesn't exist"]],
    ['update a directory', [{ action: 'update', file_path: 'src' }], ['CommitActionError', "A file with this name doesn't exist"]],
    ['update a submodule', [{ action: 'update', file_path: 'vendor/lib' }], ['CommitActionError', "A file with this name doesn't exist"]],
    ['delete a missing file', [{ action: 'delete', file_path: 'nope.txt' }], ['CommitActionError', "A file with this name doesn't exist"]],
    ['delete a directory', [{ action: 'delete', file_path: 'src' }], ['CommitActionError', "A file with this name doesn't exist"]],
    ['chmod a missing file', [{ action: 'chmod', file_path: 'nope.txt', execute_filemode: true }], ['CommitActionError', "A file with this name doesn't exist"]],
    ['chmod a symlink', [{ action: 'chmod', file_path: 'link', execute_filemode: true }], ['CommitActionError', "A file with this name doesn't exist"]],
    ['move a missing file', [{ action: 'move', file_path: 'b.txt', previous_path: 'nope.txt' }], ['CommitActionError', "A file with this name doesn't exist"]],
    ['move onto an existing file', [{ action: 'move', file_path: 'README.md', previous_path: 'run.sh' }], ['CommitActionError', 'A file with this name already exists']],
    ['move without a source', [{ action: 'move', file_path: 'b.txt' }], ['InvalidTreePathError', 'You must provide a file path']],
    ['path with ..', [{ action: 'create', file_path: '../outside' }], ['InvalidTreePathError', 'Path cannot include directory traversal']],
    ['absolute path', [{ action: 'create', file_path: '/etc/passwd' }], ['InvalidTreePathError', 'Path must be relative']],
    ['empty segment', [{ action: 'create', file_path: 'a//b' }], ['InvalidTreePathError', 'Path contains an empty segment']],
    ['.git segment', [{ action: 'create', file_path: '.git/hooks/post-receive' }], ['InvalidTreePathError', 'Path cannot include a .git directory']],
    ['.GIT segment', [{ action: 'update', file_path: 'x/.GIT/config' }], ['InvalidTreePathError', 'Path cannot include a .git directory']],
    ['NUL', [{ action: 'create', file_path: 'a\u0000--exec=x' }], ['InvalidTreePathError', 'Path contains a NUL byte']],
    ['empty path', [{ action: 'create', file_path: '' }], ['InvalidTreePathError', 'You must provide a file path']],
    ['unknown action', [{ action: 'rename' as 'move', file_path: 'x' }], ['CommitActionError', 'Unknown action']],
  ])('refuses: %s', (_name, actions, expected) => {
    expect(failure(...actions)).toEqual(expected);
  });

  it('allows deleting a submodule', () => {
    expect(plan({ action: 'delete', file_path: 'vendor/lib' })).toEqual([{ path: 'vendor/lib', remove: true }]);
  });

  it('throws typed errors', () => {
    expect(() => plan({ action: 'create', file_path: 'README.md' })).toThrow(CommitActionError);
    expect(() => plan({ action: 'create', file_path: '../x' })).toThrow(InvalidTreePathError);
  });
});

describe('pathsToInspect', () => {
  it('lists action paths, move sources and their parents, skipping invalid paths', () => {
    expect(pathsToInspect([{ action: 'move', file_path: 'a/b/c.txt', previous_path: 'd/e.txt' }, { action: 'create', file_path: '../x' }]).sort()).toEqual(['a', 'a/b', 'a/b/c.txt', 'd', 'd/e.txt']);
  });
});

describe('indexInfo', () => {
  it('writes NUL-terminated index-info lines, new contents taking the hashed ids in order', () => {
    const updates = plan({ action: 'create', file_path: 'new\nline.txt', content: content('x') }, { action: 'delete', file_path: 'README.md' }, { action: 'chmod', file_path: 'src/a.txt', execute_filemode: true });
    expect(indexInfo(updates, ['n'.repeat(40)], ZERO).toString()).toBe(`100644 ${'n'.repeat(40)}\tnew\nline.txt\0` + `0 ${ZERO}\tREADME.md\0` + `100755 ${BLOB}\tsrc/a.txt\0`);
  });
});
