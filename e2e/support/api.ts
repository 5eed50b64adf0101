/**
 * Direct REST API v4 calls for arranging state the browser test is not about
 * (and for checking what a token can do), with a personal access token.
 */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
}

export async function apiCall<T = any>(
  baseUrl: string,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: Record<string, unknown>,
): Promise<ApiResponse<T>> {
  const response = await fetch(new URL(`/api/v4${path}`, baseUrl), {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed as T };
}

/** Like apiCall, but throws unless the status is 2xx; returns the body. */
export async function api<T = any>(...args: Parameters<typeof apiCall>): Promise<T> {
  const response = await apiCall<T>(...args);
  if (response.status < 200 || response.status > 299) {
    throw new Error(`${args[2]} ${args[3]} answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body;
}
