import type { FastifyRequest } from 'fastify';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

export interface Page {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
}

/** GitLab's offset pagination: page from 1, per_page 20 by default, clamped to 100 (the declared `Pagination` parameters). */
export function parsePage(params: { page?: unknown; per_page?: unknown }): Page {
  const rawPage = Number(params.page ?? 1);
  const rawPerPage = Number(params.per_page ?? DEFAULT_PER_PAGE);
  const page = Number.isSafeInteger(rawPage) && rawPage > 0 ? rawPage : 1;
  const perPage = Number.isSafeInteger(rawPerPage) && rawPerPage > 0 ? Math.min(rawPerPage, MAX_PER_PAGE) : DEFAULT_PER_PAGE;
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

export interface PaginationHeaders {
  [name: string]: string;
}

/**
 * The headers GitLab sends with every list: X-Total, X-Total-Pages, X-Page,
 * X-Per-Page, X-Next-Page, X-Prev-Page and a Link header whose format
 * (`<url>; rel="next"`) gitbeaker follows to fetch every page. Pure.
 */
export function paginationHeaders(url: URL, page: Page, total: number): PaginationHeaders {
  const totalPages = Math.max(1, Math.ceil(total / page.perPage));
  const next = page.page < totalPages ? page.page + 1 : null;
  const prev = page.page > 1 ? Math.min(page.page - 1, totalPages) : null;
  const link = (n: number) => {
    const target = new URL(url);
    target.searchParams.set('page', String(n));
    target.searchParams.set('per_page', String(page.perPage));
    return target.toString();
  };
  const links: string[] = [];
  if (prev) links.push(`<${link(prev)}>; rel="prev"`);
  if (next) links.push(`<${link(next)}>; rel="next"`);
  links.push(`<${link(1)}>; rel="first"`);
  links.push(`<${link(totalPages)}>; rel="last"`);
  return {
    'x-total': String(total),
    'x-total-pages': String(totalPages),
    'x-page': String(page.page),
    'x-per-page': String(page.perPage),
    'x-next-page': next ? String(next) : '',
    'x-prev-page': prev ? String(prev) : '',
    link: links.join(', '),
  };
}

/** Headers for a list whose total is unknown (git-backed lists): next exists when a probe row came back. */
export function keysetlessHeaders(url: URL, page: Page, hasMore: boolean): PaginationHeaders {
  const headers = paginationHeaders(url, page, hasMore ? page.page * page.perPage + 1 : (page.page - 1) * page.perPage);
  delete headers['x-total'];
  delete headers['x-total-pages'];
  headers.link = headers.link!.split(', ').filter((part) => !part.endsWith('rel="last"')).join(', ');
  return headers;
}

export function requestUrl(request: FastifyRequest, externalUrl: string): URL {
  return new URL(request.url, externalUrl);
}
