/**
 * GitLab's offset pagination headers (doc/api/rest/_index.md, "Pagination"):
 * X-Page, X-Per-Page, X-Total, X-Total-Pages, X-Next-Page, X-Prev-Page.
 * Next/prev are empty on the boundary pages; X-Total and X-Total-Pages are
 * omitted for very large collections, so they are optional here.
 */
export interface PageInfo {
  page: number;
  perPage: number | null;
  total: number | null;
  totalPages: number | null;
  nextPage: number | null;
  prevPage: number | null;
}

export interface Paginated<T> {
  items: T[];
  pageInfo: PageInfo;
}

interface HeaderSource {
  get(name: string): string | null;
}

function positiveInt(value: string | null): number | null {
  if (value === null || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed >= 0 ? parsed : null;
}

export function parsePageInfo(headers: HeaderSource, requestedPage = 1): PageInfo {
  return {
    page: positiveInt(headers.get('x-page')) ?? requestedPage,
    perPage: positiveInt(headers.get('x-per-page')),
    total: positiveInt(headers.get('x-total')),
    totalPages: positiveInt(headers.get('x-total-pages')),
    nextPage: positiveInt(headers.get('x-next-page')) || null,
    prevPage: positiveInt(headers.get('x-prev-page')) || null,
  };
}

/** Reads `?page=` from a URL search string; anything not a positive integer is page 1. */
export function pageFromSearch(search: URLSearchParams): number {
  const page = Number(search.get('page'));
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/** `<url>; rel="next"` (keyset pages) → the same-origin path and query, or null on the last page. */
export function nextLink(header: string | null, origin: string = window.location.origin): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) {
      const url = new URL(match[1]!, origin);
      return url.pathname + url.search;
    }
  }
  return null;
}
