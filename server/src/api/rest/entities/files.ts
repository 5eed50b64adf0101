import type { TreeEntry } from '../../../git/tree.js';
import type { FileView } from '../../../domains/repository/files.service.js';

/** GitLab's tree entry (GET /projects/:id/repository/tree). */
export function treeEntryEntity(entry: TreeEntry) {
  return { id: entry.id, name: entry.name, type: entry.type, path: entry.path, mode: entry.mode };
}

/** The file metadata shared by the JSON body and the X-Gitlab-* headers. */
export function fileMetadata(file: FileView) {
  return {
    file_name: file.file_name,
    file_path: file.file_path,
    size: file.size,
    encoding: file.encoding,
    content_sha256: file.content_sha256,
    ref: file.ref,
    blob_id: file.blob_id,
    commit_id: file.commit_id,
    last_commit_id: file.last_commit_id,
    execute_filemode: file.execute_filemode,
  };
}

/** GET /projects/:id/repository/files/:file_path */
export function fileEntity(file: FileView) {
  return { ...fileMetadata(file), content: file.content.toString('base64') };
}

/**
 * GitLab's `set_http_headers`: `X-Gitlab-File-Name`, `X-Gitlab-Content-Sha256`, …
 * Header values are latin1 on the wire; a name outside it (or with control
 * characters) is sent percent-encoded rather than refused.
 */
export function fileHeaders(file: FileView): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(fileMetadata(file))) {
    const name = `x-gitlab-${key.split('_').join('-')}`;
    const text = value === null ? '' : String(value);
    headers[name] = /^[\x20-\x7e]*$/.test(text) ? text : encodeURIComponent(text);
  }
  return headers;
}
