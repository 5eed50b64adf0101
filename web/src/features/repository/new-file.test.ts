import { describe, expect, it } from 'vitest';
import { fileCreate, newFilePath } from './new-file';

describe('newFilePath', () => {
  it.each([
    ['', 'README.md', 'README.md'],
    ['docs', 'guide.md', 'docs/guide.md'],
    ['docs/', '/api//users.md', 'docs/api/users.md'],
    ['', '  .gitlab-ci.yml ', '.gitlab-ci.yml'],
  ])('%s + %s is %s', (dir, name, path) => {
    expect(newFilePath(dir, name)).toBe(path);
  });

  it.each([['', ''], ['docs', '   '], ['', 'dir/'], ['docs', '../secrets'], ['', './x']])('refuses %s + %s', (dir, name) => {
    expect(newFilePath(dir, name)).toBeNull();
  });
});

describe('fileCreate', () => {
  it('commits to the branch shown, with GitLab’s default message', () => {
    expect(fileCreate({ ref: 'main', targetBranch: '', text: 'x\n', message: ' ' })).toEqual({ branch: 'main', content: 'x\n', commit_message: 'Add new file', encoding: 'text' });
  });

  it('starts a new branch from the one shown when another is named', () => {
    expect(fileCreate({ ref: 'main', targetBranch: ' add-ci ', text: '', message: 'Add CI' })).toEqual({ branch: 'add-ci', start_branch: 'main', content: '', commit_message: 'Add CI', encoding: 'text' });
  });
});
