/**
 * GitLab's keyset pagination of the repository tree: `page_token` is the path of
 * the last entry already seen; the next link carries the last path of this page.
 * Pure.
 */
export function keysetTreePage<T extends { path: string }>(entries: readonly T[], pageToken: string | undefined, perPage: number) {
  const start = pageToken === undefined ? 0 : entries.findIndex((entry) => entry.path === pageToken) + 1;
  // An unknown token starts nowhere: findIndex gives -1, so start would be 0; GitLab answers an empty page.
  if (pageToken !== undefined && start === 0) return { items: [] as T[], nextToken: null };
  const items = entries.slice(start, start + perPage);
  const nextToken = start + perPage < entries.length && items.length > 0 ? items[items.length - 1]!.path : null;
  return { items, nextToken };
}

export function keysetLink(url: URL, perPage: number, nextToken: string): string {
  const next = new URL(url);
  next.searchParams.delete('page');
  next.searchParams.set('pagination', 'keyset');
  next.searchParams.set('per_page', String(perPage));
  next.searchParams.set('page_token', nextToken);
  return `<${next.toString()}>; rel="next"`;
}
