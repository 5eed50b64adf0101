import { ApiError, apiErrorFromBody } from './api-error';
import { nextLink, type Paginated, parsePageInfo } from './pagination';

/**
 * The one HTTP client of the web app. It talks to GitLab's REST API v4 under
 * `/api/v4` and to the session endpoints under `/-/`, sends the session cookie
 * (same-origin), adds `X-CSRF-Token` to every mutating request, turns failures
 * into ApiError and reads pagination headers.
 */
export const API_PREFIX = '/api/v4';
export const CSRF_HEADER = 'X-CSRF-Token';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

export interface ApiClientOptions {
  /** The token from the session response; read at request time so it is always current. */
  getCsrfToken: () => string | undefined;
  fetch?: typeof fetch;
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

/** A conditional GET's answer: 304 (what the caller holds is current), or the body (undefined for 204) and its new ETag. */
export type ConditionalAnswer<T> = { unchanged: true } | { unchanged: false; data: T | undefined; etag: string | null };

/** `{a: 1, b: undefined, s: ['x', 'y']}` → `?a=1&s[]=x&s[]=y` (GitLab's array syntax). */
export function buildQuery(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const item of value) params.append(`${key}[]`, String(item));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * API paths are relative to /api/v4 unless they name a web endpoint: the app's own `/-/…` or a
 * project's `/<full path>/-/…` (GitLab's web routes; an API path never has a `/-/` segment,
 * its project paths and refs are encoded).
 */
export function resolveUrl(path: string, query?: Query): string {
  const base = path.startsWith('/-/') || path.includes('/-/') || path.startsWith(API_PREFIX) ? path : `${API_PREFIX}${path}`;
  return base + buildQuery(query);
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (type.split(';')[0]?.trim() === 'application/json' || /^[[{]/.test(text.trimStart())) {
    try {
      return text === '' ? undefined : JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export function createApiClient({ getCsrfToken, fetch: fetchImpl = (...args) => fetch(...args) }: ApiClientOptions) {
  async function send(method: string, path: string, options: RequestOptions = {}, extraHeaders: Record<string, string> = {}): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (MUTATING.has(method)) {
      const token = getCsrfToken();
      if (token) headers[CSRF_HEADER] = token;
    }
    let response: Response;
    try {
      response = await fetchImpl(resolveUrl(path, options.query), {
        method,
        headers,
        credentials: 'same-origin',
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new ApiError(0, `Network error: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
    // a conditional GET's 304 is an answer, not a failure
    if (!response.ok && !(response.status === 304 && extraHeaders['If-None-Match'] !== undefined)) throw apiErrorFromBody(response.status, await readBody(response));
    return response;
  }

  async function json<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
    return (await readBody(await send(method, path, options))) as T;
  }

  return {
    get: <T>(path: string, options?: RequestOptions) => json<T>('GET', path, options),
    post: <T>(path: string, options?: RequestOptions) => json<T>('POST', path, options),
    put: <T>(path: string, options?: RequestOptions) => json<T>('PUT', path, options),
    patch: <T>(path: string, options?: RequestOptions) => json<T>('PATCH', path, options),
    delete: (path: string, options?: RequestOptions) => json<void>('DELETE', path, options),
    /** A GET of one page of a list, with GitLab's pagination headers read. */
    async getPage<T>(path: string, options: RequestOptions = {}): Promise<Paginated<T>> {
      const response = await send('GET', path, options);
      const requested = Number(options.query?.page ?? 1);
      return { items: ((await readBody(response)) ?? []) as T[], pageInfo: parsePageInfo(response.headers, requested) };
    },
    /** One keyset page (`pagination=keyset`): its items and the next page's path from the Link header. */
    async getKeysetPage<T>(path: string, options: RequestOptions = {}): Promise<{ items: T[]; next: string | null }> {
      const response = await send('GET', path, options);
      return { items: ((await readBody(response)) ?? []) as T[], next: nextLink(response.headers.get('link')) };
    },
    /**
     * A GET polled with an ETag: `If-None-Match` carries the tag of what the caller holds (setting
     * it makes the browser hand the 304 over instead of answering from its cache).
     */
    async getIfNoneMatch<T>(path: string, etag: string | null, options: RequestOptions = {}): Promise<ConditionalAnswer<T>> {
      const response = await send('GET', path, options, etag ? { 'If-None-Match': etag } : {});
      if (response.status === 304) return { unchanged: true };
      return { unchanged: false, data: (await readBody(response)) as T | undefined, etag: response.headers.get('etag') };
    },
    /** The raw bytes of a GET (raw files whose size or binary nature matters). */
    async getBlob(path: string, options?: RequestOptions): Promise<Blob> {
      return (await send('GET', path, options)).blob();
    },
    /** The raw text of a GET (raw files). */
    async getText(path: string, options?: RequestOptions): Promise<string> {
      return (await send('GET', path, options)).text();
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** `group/sub/project` → `group%2Fsub%2Fproject`: one path segment, as GitLab requires. */
export function encodeId(idOrPath: number | string): string {
  return encodeURIComponent(String(idOrPath));
}
