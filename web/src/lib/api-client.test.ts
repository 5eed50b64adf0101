import { describe, expect, it, vi } from 'vitest';
import { buildQuery, createApiClient, encodeId, resolveUrl } from './api-client';
import { ApiError } from './api-error';

function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) },
  });
}

describe('buildQuery', () => {
  it('skips empty values and uses the bracket syntax for arrays', () => {
    expect(buildQuery({ a: 1, b: undefined, c: '', d: null, scopes: ['api', 'read_user'], ok: false })).toBe(
      '?a=1&scopes%5B%5D=api&scopes%5B%5D=read_user&ok=false',
    );
    expect(buildQuery({})).toBe('');
  });
});

describe('resolveUrl', () => {
  it('prefixes API paths and leaves session paths alone', () => {
    expect(resolveUrl('/projects', { page: 2 })).toBe('/api/v4/projects?page=2');
    expect(resolveUrl('/-/session')).toBe('/-/session');
    expect(resolveUrl('/group/app/-/merge_requests/1/ci_environments_status', { environment_target: 'merge_commit' })).toBe(
      '/group/app/-/merge_requests/1/ci_environments_status?environment_target=merge_commit',
    );
    expect(resolveUrl('/projects/group%2Fapp/repository/branches/a%2F-%2Fb')).toBe('/api/v4/projects/group%2Fapp/repository/branches/a%2F-%2Fb');
  });
});

describe('encodeId', () => {
  it('encodes a full path into one segment', () => {
    expect(encodeId('group/sub/project')).toBe('group%2Fsub%2Fproject');
    expect(encodeId(42)).toBe('42');
  });
});

describe('createApiClient', () => {
  it('sends the CSRF token on mutating requests only, with same-origin credentials', async () => {
    const fetch = vi.fn(async () => jsonResponse({ id: 1 }, { status: 201 }));
    const api = createApiClient({ getCsrfToken: () => 'tok', fetch });
    await api.get('/user');
    await api.post('/projects', { body: { name: 'x' } });
    const [getUrl, getInit] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    const [postUrl, postInit] = fetch.mock.calls[1] as unknown as [string, RequestInit];
    expect(getUrl).toBe('/api/v4/user');
    expect((getInit.headers as Record<string, string>)['X-CSRF-Token']).toBeUndefined();
    expect(postUrl).toBe('/api/v4/projects');
    expect(postInit.credentials).toBe('same-origin');
    expect((postInit.headers as Record<string, string>)['X-CSRF-Token']).toBe('tok');
    expect(postInit.body).toBe('{"name":"x"}');
  });

  it('throws ApiError with GitLab validation errors', async () => {
    const api = createApiClient({
      getCsrfToken: () => 't',
      fetch: async () => jsonResponse({ message: { path: ['has already been taken'] } }, { status: 400 }),
    });
    const error = await api.post('/projects').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).fieldErrors).toEqual({ path: ['has already been taken'] });
  });

  it('reports a network failure as status 0', async () => {
    const api = createApiClient({
      getCsrfToken: () => undefined,
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = (await api.get('/user').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(0);
    expect(error.message).toBe('Network error: Failed to fetch');
  });

  it('returns items and page info for list calls', async () => {
    const api = createApiClient({
      getCsrfToken: () => undefined,
      fetch: async () => jsonResponse([{ id: 1 }], { headers: { 'X-Total': '21', 'X-Total-Pages': '2', 'X-Next-Page': '2' } }),
    });
    const page = await api.getPage<{ id: number }>('/projects', { query: { page: 1 } });
    expect(page.items).toEqual([{ id: 1 }]);
    expect(page.pageInfo).toMatchObject({ page: 1, total: 21, totalPages: 2, nextPage: 2 });
  });

  it('returns undefined for 204 answers', async () => {
    const api = createApiClient({ getCsrfToken: () => 't', fetch: async () => new Response(null, { status: 204 }) });
    await expect(api.delete('/-/session')).resolves.toBeUndefined();
  });
});
