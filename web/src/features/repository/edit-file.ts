/**
 * The single-file editor's rules: what can be edited, the default commit message, and the
 * body of `PUT /projects/:id/repository/files/:file_path` (doc/api/repository_files.md).
 * Pure.
 */
import { classifyFile, formatBytes } from '../../lib/file-content';
import type { RepositoryFile } from '../../lib/gitlab-types';

export type Editable =
  | { kind: 'text'; text: string; crlf: boolean }
  | { kind: 'not-editable'; reason: string };

/**
 * A textarea turns CRLF into LF. A file whose every line break was CRLF gets them back on
 * save, so editing one line does not rewrite every line.
 */
function usesCrlf(text: string): boolean {
  const breaks = text.match(/\r?\n/g);
  return breaks !== null && breaks.every((lineBreak) => lineBreak === '\r\n');
}

export function editableFile(file: RepositoryFile): Editable {
  const display = classifyFile(file);
  switch (display.kind) {
    case 'text':
      return { kind: 'text', text: display.text.replace(/\r\n/g, '\n'), crlf: usesCrlf(display.text) };
    case 'empty':
      return { kind: 'text', text: '', crlf: false };
    case 'image':
      return { kind: 'not-editable', reason: 'Images cannot be edited in the browser.' };
    case 'binary':
      return { kind: 'not-editable', reason: 'Binary files cannot be edited in the browser.' };
    case 'too-large':
      return { kind: 'not-editable', reason: `This file (${formatBytes(display.size)}) is too large to edit in the browser.` };
  }
}

/** GitLab's default message for an edit in the single-file editor. */
export function defaultCommitMessage(path: string): string {
  return `Update ${path.slice(path.lastIndexOf('/') + 1)}`;
}

export interface FileUpdate {
  branch: string;
  content: string;
  commit_message: string;
  encoding: 'text';
  /** The commit the editor started from: the server refuses the update if the file changed since. */
  last_commit_id: string;
}

export function fileUpdate(input: { branch: string; text: string; crlf: boolean; message: string; lastCommitId: string }): FileUpdate {
  return {
    branch: input.branch,
    content: input.crlf ? input.text.replace(/\n/g, '\r\n') : input.text,
    commit_message: input.message.trim(),
    encoding: 'text',
    last_commit_id: input.lastCommitId,
  };
}
