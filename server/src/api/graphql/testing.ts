import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { CSRF_HEADER, SESSION_COOKIE } from '@tributary/contracts';

/**
 * Clients for the GraphQL integration tests: plain fetch for HTTP (status codes and error
 * bodies matter), the web app's cookie session, and the real `graphql-ws` client over the
 * `ws` WebSocket for subscriptions.
 */
export interface GraphqlResponse<T = any> {
  status: number;
  body: { data?: T; errors?: Array<{ message: string }> };
}

export interface Credentials {
  token?: string;
  session?: WebSession;
  /** send the session's CSRF token (default true when a session is given) */
  csrf?: boolean;
  origin?: string;
}

export interface WebSession {
  cookie: string;
  csrfToken: string;
}

function headersFor(credentials: Credentials): Record<string, string> {
  const headers: Record<string, string> = {};
  if (credentials.token) headers['private-token'] = credentials.token;
  if (credentials.session) {
    headers.cookie = credentials.session.cookie;
    if (credentials.csrf !== false) headers[CSRF_HEADER] = credentials.session.csrfToken;
  }
  if (credentials.origin) headers.origin = credentials.origin;
  return headers;
}

export async function graphql<T = any>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  credentials: Credentials = {},
  method: 'POST' | 'GET' = 'POST',
): Promise<GraphqlResponse<T>> {
  const headers = headersFor(credentials);
  const response =
    method === 'POST'
      ? await fetch(`${url}/api/graphql`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) })
      : await fetch(`${url}/api/graphql?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}`, { headers });
  return { status: response.status, body: (await response.json()) as GraphqlResponse<T>['body'] };
}

/** Signs in like the web app does (POST /-/session with JSON). */
export async function signIn(url: string, login: string, password: string): Promise<WebSession> {
  const response = await fetch(`${url}/-/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login, password }) });
  if (response.status !== 201) throw new Error(`sign-in failed: ${response.status}`);
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith(`${SESSION_COOKIE}=`))!.split(';')[0]!;
  const { csrf_token: csrfToken } = (await response.json()) as { csrf_token: string };
  return { cookie, csrfToken };
}

/**
 * A graphql-ws client. A token goes in the connection_init payload (how non-browser clients
 * authenticate); a session goes as the upgrade request's cookie, with an Origin header as a
 * browser would send it.
 */
export function wsClient(url: string, credentials: { token?: string; session?: WebSession; origin?: string } = {}): Client {
  const headers: Record<string, string> = {};
  if (credentials.session) headers.cookie = credentials.session.cookie;
  headers.origin = credentials.origin ?? url;
  class AuthenticatedWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  return createClient({
    url: `${url.replace(/^http/, 'ws')}/api/graphql`,
    webSocketImpl: AuthenticatedWebSocket,
    connectionParams: credentials.token ? { authorization: `Bearer ${credentials.token}` } : {},
    retryAttempts: 0,
    lazy: false,
    // Connection failures reach the subscriptions' error sinks; no console noise besides.
    onNonLazyError: () => undefined,
  });
}

export interface SubscriptionProbe<T> {
  messages: Array<{ data?: T; errors?: unknown[]; at: number }>;
  errors: unknown[];
  /** Resolves with the first message after `since` (performance.now()), or rejects after `ms`. */
  next(since: number, ms?: number): Promise<{ data?: T; errors?: unknown[]; at: number }>;
  stop(): void;
}

/** Subscribes and records every message with the time it arrived (performance.now()). */
export function subscribe<T = any>(client: Client, query: string, variables: Record<string, unknown>): SubscriptionProbe<T> {
  const messages: SubscriptionProbe<T>['messages'] = [];
  const errors: unknown[] = [];
  const waiters: Array<() => void> = [];
  const stop = client.subscribe<T>(
    { query, variables },
    {
      next: (value) => {
        messages.push({ ...(value as { data?: T; errors?: unknown[] }), at: performance.now() });
        waiters.splice(0).forEach((wake) => wake());
      },
      error: (error) => {
        errors.push(error);
        waiters.splice(0).forEach((wake) => wake());
      },
      complete: () => undefined,
    },
  );
  return {
    messages,
    errors,
    stop,
    next(since, ms = 5_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no subscription message within ${ms} ms`)), ms);
        const check = () => {
          const found = messages.find((message) => message.at >= since);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else if (errors.length) {
            clearTimeout(timer);
            reject(errors[0] instanceof Error ? errors[0] : new Error(JSON.stringify(errors[0])));
          } else waiters.push(check);
        };
        check();
      });
    },
  };
}
