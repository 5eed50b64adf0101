// first, before any Primer module loads: Node gets a hook for their CSS imports
import './css-imports';
import { BaseStyles } from '@primer/react';
import { ThemeProvider } from '@primer/react/next';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import { queryClient } from '../app/client';
import { afterEachTestOfEveryFile } from './after-each-file-test';

/**
 * Component tests (`*.test.tsx`, in jsdom): the real component under the app's own providers
 * (the one TanStack Query client of app/client.ts, Primer's ThemeProvider and BaseStyles, as
 * app/App.tsx wraps the router), with only the network faked: `fetch` answers from a route
 * table, and WebSocket never connects (the merge widget's live channel stays "connecting").
 */

/** One request as the component sent it. */
export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
  /** the request's headers as the client set them */
  headers: Record<string, string>;
}

/** Answers a request, or undefined to pass it to the next route. */
export type Route = (request: SentRequest) => Response | Promise<Response> | undefined;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** A route for one method and path (the path without its query string). */
export const on =
  (method: string, path: string, answer: (request: SentRequest) => Response | Promise<Response>): Route =>
  (request) =>
    request.method === method && request.path === path ? answer(request) : undefined;

/**
 * Replaces `fetch` with the routes (first match answers); a request no route answers is a 404
 * with GitLab's body, and is listed in `unanswered` so a test can tell. Returns every request sent.
 */
export function fakeNetwork(routes: Route[]) {
  const sent: SentRequest[] = [];
  const unanswered: SentRequest[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, window.location.origin);
    const text = typeof init.body === 'string' ? init.body : null;
    const headers = init.headers && !(init.headers instanceof Headers) && !Array.isArray(init.headers) ? (init.headers as Record<string, string>) : {};
    const request: SentRequest = { method: (init.method ?? 'GET').toUpperCase(), path: url.pathname, body: text === null ? null : JSON.parse(text), headers };
    sent.push(request);
    for (const route of routes) {
      const answer = await route(request);
      if (answer) return answer;
    }
    unanswered.push(request);
    return json(404, { message: '404 Not Found' });
  });
  vi.stubGlobal('WebSocket', SilentWebSocket);
  return { sent, unanswered };
}

/** A socket that never opens: no server behind it, and no error that would start the fallback poll. */
class SilentWebSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly readyState = 0;
  readonly protocol = '';
  onopen = null;
  onclose = null;
  onerror = null;
  onmessage = null;
  send() {}
  close() {}
}

/**
 * jsdom has no media queries; Primer asks for them (reduced motion, viewport ranges). Nothing
 * matches, as in a large window with no preferences set.
 */
if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }) as MediaQueryList;
}

/** jsdom lays nothing out, so no element ever resizes: an observer that never reports. */
if (typeof window.ResizeObserver !== 'function') {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

/**
 * jsdom has no popover API, and the polyfill Primer's tooltips would load needs constructable
 * style sheets, which jsdom lacks too: a popover that opens and closes by an attribute.
 */
if (!('popover' in HTMLElement.prototype)) {
  Object.defineProperty(HTMLElement.prototype, 'popover', {
    configurable: true,
    get(this: HTMLElement) {
      return this.getAttribute('popover');
    },
    set(this: HTMLElement, value: string | null) {
      if (value === null) this.removeAttribute('popover');
      else this.setAttribute('popover', value);
    },
  });
  Object.assign(HTMLElement.prototype, {
    showPopover(this: HTMLElement) {
      this.setAttribute('data-popover-open', '');
    },
    hidePopover(this: HTMLElement) {
      this.removeAttribute('data-popover-open');
    },
    togglePopover(this: HTMLElement) {
      this.toggleAttribute('data-popover-open');
    },
  });
}

/** Renders `ui` as the app does: the query client, Primer's theme, and a router at `path`. */
export function renderInApp(ui: ReactElement, { path = '/' }: { path?: string } = {}): RenderResult {
  return render(
    <QueryClientProvider client={queryClient}>
      <ThemeProvider colorMode="light">
        <BaseStyles>
          <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
        </BaseStyles>
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

// findBy…/waitFor wait for what the page shows; a loaded CI machine (two workers beside the
// browser tests) can take longer than Testing Library's default second to render it.
configure({ asyncUtilTimeout: 5_000 });

// After every test of every file that renders (not once per worker: see after-each-file-test.ts).
afterEachTestOfEveryFile(() => {
  cleanup();
  queryClient.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
