/**
 * The new file form's rules: the file's path from the directory and the typed name, GitLab's
 * default commit message, and the body of `POST /projects/:id/repository/files/:file_path`
 * (a new branch from the one shown when another is named). Pure.
 */

/** `dir` + `name`, without leading, doubled or trailing slashes; null when the name is empty or leaves the tree. */
export function newFilePath(dir: string, name: string): string | null {
  const parts = [...dir.split('/'), ...name.trim().split('/')].filter((part) => part !== '');
  if (name.trim() === '' || name.trim().endsWith('/') || parts.some((part) => part === '.' || part === '..')) return null;
  return parts.join('/');
}

/** GitLab's default message for a file created in the browser. */
export const NEW_FILE_COMMIT_MESSAGE = 'Add new file';

export interface FileCreate {
  branch: string;
  start_branch?: string;
  content: string;
  commit_message: string;
  encoding: 'text';
}

export function fileCreate(input: { ref: string; targetBranch: string; text: string; message: string }): FileCreate {
  const branch = input.targetBranch.trim() || input.ref;
  return {
    branch,
    ...(branch !== input.ref ? { start_branch: input.ref } : {}),
    content: input.text,
    commit_message: input.message.trim() || NEW_FILE_COMMIT_MESSAGE,
    encoding: 'text',
  };
}
