/**
 * Splitting `<ref>/<path>` from a `/-/tree/…` or `/-/blob/…` URL, as GitLab's
 * ExtractsRef does: refs may contain `/`, so the longest branch or tag name that
 * is the whole string or a prefix of it ending at a `/` wins. If no known ref
 * matches, the first segment is the ref (a commit SHA or a ref that does not exist,
 * which the repository call then reports).
 */
export interface RefAndPath {
  ref: string;
  path: string;
}

export function splitRefAndPath(refAndPath: string, refNames: Iterable<string>): RefAndPath {
  const value = refAndPath.replace(/^\/+/, '');
  let best: string | null = null;
  for (const name of refNames) {
    if (name === '') continue;
    const matches = value === name || value.startsWith(`${name}/`);
    if (matches && (best === null || name.length > best.length)) best = name;
  }
  const ref = best ?? value.split('/')[0] ?? '';
  const path = value.slice(ref.length).replace(/^\/+/, '').replace(/\/+$/, '');
  return { ref, path };
}

/** Whether the split can depend on ref names at all (a single segment cannot). */
export function isAmbiguousRefPath(refAndPath: string): boolean {
  return refAndPath.replace(/^\/+|\/+$/g, '').includes('/');
}

/**
 * Every candidate ref contains the first segment, so a substring search for it
 * (GitLab's `search` on branches and tags) returns a superset of the candidates.
 */
export function refSearchTerm(refAndPath: string): string {
  return refAndPath.replace(/^\/+/, '').split('/')[0] ?? '';
}
