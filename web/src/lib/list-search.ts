/**
 * `?search=&page=` of the simple searchable lists (users, members, branches, projects, groups)
 * and how their search box follows it. Pure; the hook is components/useListParams.ts.
 */

/** The URL with `search` set (or removed when blank); a new search starts again at page 1. */
export function withSearch(current: URLSearchParams, search: string): URLSearchParams {
  const next = new URLSearchParams(current);
  const trimmed = search.trim();
  if (trimmed) next.set('search', trimmed);
  else next.delete('search');
  next.delete('page');
  return next;
}

/** The URL on `page`; page 1 is the URL without `page`. */
export function withPage(current: URLSearchParams, page: number): URLSearchParams {
  const next = new URLSearchParams(current);
  if (page > 1) next.set('page', String(page));
  else next.delete('page');
  return next;
}

/**
 * The box's text once the URL's search has changed to `search`. The URL is the truth, so a
 * change from outside (Back, a link to the bare list) replaces the text. Text that already
 * says `search` was what the URL just took from it, and is kept as typed, spaces and all.
 */
export function textForSearch(text: string, search: string): string {
  return text.trim() === search ? text : search;
}
