import { describe, expect, it } from 'vitest';
import { parentPaths, treePathProblem, writablePathProblem } from './tree-paths.js';

describe('treePathProblem', () => {
  it.each([
    ['README.md', null],
    ['src/a.txt', null],
    ['-rf', null],
    ['--output=x', null],
    [':(exclude)magic', null],
    ['with space/tab\there', null],
    ['new\nline', null],
    ['unicodé 日本.txt', null],
    ['..hidden', null],
    ['a..b', null],
    ['', 'Path is empty'],
    ['../etc/passwd', 'Path cannot include directory traversal'],
    ['a/../../b', 'Path cannot include directory traversal'],
    ['a/./b', 'Path cannot include directory traversal'],
    ['.', 'Path cannot include directory traversal'],
    ['/etc/passwd', 'Path must be relative'],
    ['a//b', 'Path contains an empty segment'],
    ['a/', 'Path contains an empty segment'],
    ['a\u0000b', 'Path contains a NUL byte'],
    ['a/'.repeat(3000), 'Path is too long'],
  ] as const)('%j → %j', (path, problem) => {
    expect(treePathProblem(path)).toBe(problem);
  });
});

describe('writablePathProblem', () => {
  it.each([
    ['.git/config', 'Path cannot include a .git directory'],
    ['.git/hooks/post-receive', 'Path cannot include a .git directory'],
    ['sub/.git/HEAD', 'Path cannot include a .git directory'],
    ['.GIT/config', 'Path cannot include a .git directory'],
    ['.git./HEAD', 'Path cannot include a .git directory'],
    ['.git /HEAD', 'Path cannot include a .git directory'],
    ['GIT~1/config', 'Path cannot include a .git directory'],
    ['.gitignore', null],
    ['.github/workflows/x.yml', null],
    ['../x', 'Path cannot include directory traversal'],
  ] as const)('%j → %j', (path, problem) => {
    expect(writablePathProblem(path)).toBe(problem);
  });
});

describe('parentPaths', () => {
  it('lists the directories above a path, outermost first', () => {
    expect(parentPaths('a/b/c.txt')).toEqual(['a', 'a/b']);
    expect(parentPaths('top.txt')).toEqual([]);
  });
});
