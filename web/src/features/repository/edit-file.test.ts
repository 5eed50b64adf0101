import { describe, expect, it } from 'vitest';
import type { RepositoryFile } from '../../lib/gitlab-types';
import { defaultCommitMessage, editableFile, fileUpdate } from './edit-file';

const file = (name: string, bytes: string | Uint8Array, size?: number): RepositoryFile => {
  const raw = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  return {
    file_name: name,
    file_path: `src/${name}`,
    size: size ?? raw.length,
    encoding: 'base64',
    content: btoa(String.fromCharCode(...raw)),
    ref: 'feature',
    blob_id: 'b'.repeat(40),
    commit_id: 'c'.repeat(40),
    last_commit_id: 'd'.repeat(40),
  };
};

describe('editableFile', () => {
  it('decodes UTF-8 text', () => {
    expect(editableFile(file('app.ts', 'const a = "ü";\n'))).toEqual({ kind: 'text', text: 'const a = "ü";\n', crlf: false });
  });

  it('edits CRLF files as LF and remembers to restore them', () => {
    expect(editableFile(file('win.txt', 'a\r\nb\r\n'))).toEqual({ kind: 'text', text: 'a\nb\n', crlf: true });
    // Mixed line breaks are kept as the textarea leaves them.
    expect(editableFile(file('mixed.txt', 'a\r\nb\n'))).toMatchObject({ crlf: false });
  });

  it('offers an empty file for editing', () => {
    expect(editableFile(file('empty.txt', ''))).toEqual({ kind: 'text', text: '', crlf: false });
  });

  it('refuses binary files, images and files too large to edit', () => {
    expect(editableFile(file('blob.bin', new Uint8Array([1, 0, 2])))).toEqual({ kind: 'not-editable', reason: 'Binary files cannot be edited in the browser.' });
    expect(editableFile(file('logo.png', 'png'))).toMatchObject({ kind: 'not-editable', reason: 'Images cannot be edited in the browser.' });
    expect(editableFile(file('huge.txt', 'x', 5 * 1024 * 1024))).toEqual({ kind: 'not-editable', reason: 'This file (5 MiB) is too large to edit in the browser.' });
  });
});

describe('fileUpdate', () => {
  it('is GitLab’s update body, naming the commit the edit started from', () => {
    expect(fileUpdate({ branch: 'feature', text: 'a\nb\n', crlf: false, message: '  Update app.ts \n', lastCommitId: 'd'.repeat(40) })).toEqual({
      branch: 'feature',
      content: 'a\nb\n',
      commit_message: 'Update app.ts',
      encoding: 'text',
      last_commit_id: 'd'.repeat(40),
    });
  });

  it('restores CRLF line breaks', () => {
    expect(fileUpdate({ branch: 'b', text: 'a\nb\n', crlf: true, message: 'm', lastCommitId: 'x' }).content).toBe('a\r\nb\r\n');
  });
});

describe('defaultCommitMessage', () => {
  it('names the file, as GitLab does', () => {
    expect(defaultCommitMessage('src/deep/app.ts')).toBe('Update app.ts');
    expect(defaultCommitMessage('README.md')).toBe('Update README.md');
  });
});
