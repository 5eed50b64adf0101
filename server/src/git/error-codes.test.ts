import { describe, expect, it } from 'vitest';
import { classifyGitError, REF_CONFLICT_CODES, type GitErrorCode } from './error-codes.js';

// Literal stderr of git 2.39.5, captured from the commands named in each row.
const CASES: ReadonlyArray<readonly [string, string, GitErrorCode]> = [
  [
    'log --end-of-options nope',
    "fatal: ambiguous argument 'nope': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'\n",
    'unknown-revision',
  ],
  ['merge-tree --write-tree main nope', 'merge-tree: nope - not something we can merge\n', 'unknown-revision'],
  ['cat-file -p nope:x', "fatal: invalid object name 'nope'.\n", 'invalid-object-name'],
  ['ls-tree main:nope', 'fatal: Not a valid object name main:nope\n', 'invalid-object-name'],
  ['merge-base main 1111…', 'fatal: Not a valid commit name 1111111111111111111111111111111111111111\n', 'invalid-object-name'],
  ['log 1111…', 'fatal: bad object 1111111111111111111111111111111111111111\n', 'bad-object'],
  ['ls-tree main:a.txt', 'fatal: not a tree object\n', 'not-a-tree'],
  [
    'update-ref main <new> <wrong old>',
    "fatal: update_ref failed for ref 'refs/heads/main': cannot lock ref 'refs/heads/main': is at a5565ea953df7b759d31df5fe841f2bbe75e841a but expected 1111111111111111111111111111111111111111\n",
    'ref-mismatch',
  ],
  ['update-ref -d main <wrong old>', "error: cannot lock ref 'refs/heads/main': is at a5565ea953df7b759d31df5fe841f2bbe75e841a but expected 1111111111111111111111111111111111111111\n", 'ref-mismatch'],
  ['update-ref main <new> 0000…', "fatal: update_ref failed for ref 'refs/heads/main': cannot lock ref 'refs/heads/main': reference already exists\n", 'ref-exists'],
  ['update-ref x <new> <old> (x missing)', "fatal: update_ref failed for ref 'refs/heads/x': cannot lock ref 'refs/heads/x': unable to resolve reference 'refs/heads/x'\n", 'ref-missing'],
  [
    'update-ref main/y while main exists',
    "fatal: update_ref failed for ref 'refs/heads/main/y': cannot lock ref 'refs/heads/main/y': 'refs/heads/main' exists; cannot create 'refs/heads/main/y'\n",
    'ref-dir-conflict',
  ],
  [
    'update-ref with a stale lock file',
    "fatal: update_ref failed for ref 'refs/heads/main': cannot lock ref 'refs/heads/main': Unable to create '/tmp/gx/r.git/./refs/heads/main.lock': File exists.\n\nAnother git process seems to be running in this repository, e.g.\nan editor opened by 'git commit'. Please make sure all processes\nare terminated then try again.\n",
    'ref-locked',
  ],
  [
    'update-ref --stdin prepare with wrong old',
    "fatal: prepare: cannot lock ref 'refs/heads/main': is at a5565ea953df7b759d31df5fe841f2bbe75e841a but expected 1111111111111111111111111111111111111111\n",
    'ref-mismatch',
  ],
  [
    'update-ref to a missing object',
    "fatal: update_ref failed for ref 'refs/heads/main': cannot update ref 'refs/heads/main': trying to write ref 'refs/heads/main' with nonexistent object 0000000000000000000000000000000000000001\n",
    'nonexistent-object',
  ],
  [
    'update-ref a branch to a tree',
    "fatal: update_ref failed for ref 'refs/heads/main': cannot update ref 'refs/heads/main': trying to write non-commit object f0e0f3514c5a1102281e00e1431b0133804f0e51 to branch 'refs/heads/main'\n",
    'non-commit-object',
  ],
  ['--git-dir=/nonexistent log', "fatal: not a git repository: '/tmp/gx/nonexist'\n", 'not-a-repository'],
  ['anything else', 'fatal: something new\n', 'unknown'],
  ['no stderr', '', 'unknown'],
];

describe('classifyGitError', () => {
  it.each(CASES)('%s', (_command, stderr, code) => {
    expect(classifyGitError(stderr)).toBe(code);
  });

  it('treats every lock failure as a ref conflict, and nothing else', () => {
    expect([...REF_CONFLICT_CODES].sort()).toEqual(['cannot-lock-ref', 'ref-dir-conflict', 'ref-exists', 'ref-locked', 'ref-mismatch', 'ref-missing']);
  });
});
