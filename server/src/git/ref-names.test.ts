import { describe, expect, it } from 'vitest';
import { isValidFullRefName, refFormatProblem, validateBranchName, validateTagName } from './ref-names.js';

const SHA1 = 'a5565ea953df7b759d31df5fe841f2bbe75e841a';

// [name, accepted as a new branch?]
const BRANCH_NAMES: ReadonlyArray<readonly [string, boolean]> = [
  ['main', true],
  ['feature/login-form', true],
  ['release-1.2', true],
  ['fix_123', true],
  ['v1.0', true],
  ['ünïcödé/ブランチ', true],
  ['emoji-🚀', true],
  ['a-b/c-d/e', true],
  ['x@y', true],
  ['a/-b', true],
  ['HEADS', true],
  // git check-ref-format refuses these
  ['', false],
  ['a..b', false],
  ['..', false],
  ['a.lock', false],
  ['a/b.lock/c', false],
  ['a b', false],
  ['a\tb', false],
  ['a\nb', false],
  ['a\u0000b', false],
  ['a\u007fb', false],
  ['a~1', false],
  ['a^', false],
  ['a:b', false],
  ['a?', false],
  ['a*', false],
  ['a[b', false],
  ['a\\b', false],
  ['a@{1}', false],
  ['@', false],
  ['/a', false],
  ['a/', false],
  ['a//b', false],
  ['.a', false],
  ['a/.b', false],
  ['a.', false],
  ['a/b.', false],
  ['x'.repeat(256), false],
  // Tributary's own rules
  ['-h', false],
  ['--output=/tmp/x', false],
  ['--upload-pack=touch${IFS}/tmp/p', false],
  ['-', false],
  [SHA1, false],
  [SHA1.toUpperCase(), false],
  ['a'.repeat(64), false],
  ['HEAD', false],
  ['refs/heads/main', false],
  [SHA1.slice(0, 39), true],
];

describe('validateBranchName', () => {
  it.each(BRANCH_NAMES)('%j → accepted: %s', (name, accepted) => {
    expect(validateBranchName(name)).toBe(accepted ? null : 'Branch name is invalid');
  });
});

describe('validateTagName', () => {
  it('uses GitLab\'s tag wording', () => {
    expect(validateTagName('v1.0')).toBeNull();
    expect(validateTagName('v1..0')).toBe('Tag name invalid');
    expect(validateTagName('-v1')).toBe('Tag name invalid');
  });
});

describe('refFormatProblem', () => {
  it('says what is wrong', () => {
    expect(refFormatProblem('a..b')).toBe('contains ".."');
    expect(refFormatProblem('a.lock')).toBe('has a part ending with ".lock"');
    expect(refFormatProblem('a b')).toMatch(/space/);
  });
});

describe('isValidFullRefName', () => {
  it.each([
    ['refs/heads/main', true],
    ['refs/heads/--output=/tmp/x', true], // git accepts it; it can arrive by push
    ['refs/heads/-h', true],
    ['refs/merge-requests/1/head', true],
    ['refs/heads', false],
    ['heads/main', false],
    ['refs/heads/a..b', false],
    ['refs/heads/a\u0000b', false],
    ['-refs/heads/x', false],
  ] as const)('%j → %s', (ref, valid) => {
    expect(isValidFullRefName(ref)).toBe(valid);
  });
});
