import { API_PREFIX, CSRF_HEADER, encodeId } from '../../lib/api-client';
import { ApiError, apiErrorFromBody } from '../../lib/api-error';
import { queryClient, SESSION_QUERY_KEY } from '../../app/client';
import type { Session } from '../../lib/gitlab-types';

/** GitLab's answer to POST /projects/:id/uploads. */
export interface UploadedFile {
  id: number;
  alt: string;
  url: string;
  full_path: string;
  markdown: string;
}

/**
 * POST /projects/:id/uploads with upload progress. fetch() cannot report the progress of a
 * request body, so this one call uses XMLHttpRequest (same cookie, same CSRF header).
 */
export function uploadFile(projectId: number | string, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_PREFIX}/projects/${encodeId(projectId)}/uploads`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = queryClient.getQueryData<Session | null>(SESSION_QUERY_KEY)?.csrf_token;
    if (token) xhr.setRequestHeader(CSRF_HEADER, token);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: the status alone speaks
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as UploadedFile);
      else reject(apiErrorFromBody(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, 'Network error'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
