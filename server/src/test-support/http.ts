/**
 * A small HTTP client for the REST API and the web session routes: it returns
 * status, headers and the parsed body instead of throwing, so tests can assert
 * refusals (401/403/404/…) exactly as a GitLab client would see them.
 */

export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else the text. */
  body: T;
  text: string;
}

export interface RequestOptions {
  /** A personal access token, sent as PRIVATE-TOKEN (GitLab's and gitbeaker's header). */
  token?: string;
  headers?: Record<string, string>;
  /** JSON body (serialised here). */
  json?: unknown;
  /** A raw body, sent as is (set content-type in headers). */
  body?: string | Buffer | Uint8Array;
}

export async function http<T = any>(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['private-token'] = options.token;
  let body: string | Buffer | Uint8Array | undefined = options.body;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${baseUrl.replace(/\/+$/, '')}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
  let parsed: unknown = text;
  if (isJson && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** `/api/v4` calls as one caller (a token, or nobody). */
export interface ApiClient {
  get<T = any>(path: string, options?: Omit<RequestOptions, 'token'>): Promise<HttpResponse<T>>;
  post<T = any>(path: string, json?: unknown, options?: Omit<RequestOptions, 'token' | 'json'>): Promise<HttpResponse<T>>;
  put<T = any>(path: string, json?: unknown, options?: Omit<RequestOptions, 'token' | 'json'>): Promise<HttpResponse<T>>;
  delete<T = any>(path: string, options?: Omit<RequestOptions, 'token'>): Promise<HttpResponse<T>>;
}

export function api(baseUrl: string, token?: string): ApiClient {
  const call = (method: string, path: string, options: RequestOptions = {}) => http(baseUrl, method, `/api/v4${path}`, { ...options, token });
  return {
    get: (path, options) => call('GET', path, options),
    post: (path, json, options) => call('POST', path, { ...options, json: json ?? {} }),
    put: (path, json, options) => call('PUT', path, { ...options, json: json ?? {} }),
    delete: (path, options) => call('DELETE', path, options),
  };
}

/** `group/sub` → `group%2Fsub`: how GitLab clients put a full path into one URL segment. */
export const encodePath = (fullPath: string): string => encodeURIComponent(fullPath);

/** The HTTP status behind a rejected gitbeaker call (GitbeakerRequestError keeps the response in `cause`). */
export async function gitbeakerStatus(promise: Promise<unknown>): Promise<{ status: number; description: string }> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: { response?: Response; description?: string } }).cause;
    if (cause?.response) return { status: cause.response.status, description: cause.description ?? '' };
    throw error;
  }
  throw new Error('expected the gitbeaker call to fail, but it succeeded');
}

/** `Basic base64(user:password)` for git's smart HTTP endpoints. */
export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}
