import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import type { RedirectRoutesRepository } from '../../domains/namespaces/redirect-routes.repository.js';
import { nullIfNotFound } from '../../platform/errors.js';

/** GitLab's deepest namespace (20 groups) and the project. */
const MAX_SEGMENTS = 21;

/**
 * A web page URL → the paths a project or group could have in it: the segments before the
 * first `/-/` (GitLab's separator; no path segment is `-`), every prefix, for group pages the
 * part after `/groups/`. `rest(n)` is what follows the first n segments (the rest of the page's URL). Pure.
 */
export function oldPathCandidates(url: string): { group: boolean; paths: string[]; rest: (prefixSegments: number) => string } | undefined {
  const [pathname, query] = url.split('?') as [string, string | undefined];
  const group = pathname.startsWith('/groups/');
  const body = group ? pathname.slice('/groups/'.length) : pathname.slice(1);
  const separator = body.indexOf('/-/');
  const head = separator >= 0 ? body.slice(0, separator) : body.replace(/\/+$/, '');
  if (head === '' || head.startsWith('-/') || head === '-') return undefined;
  let segments: string[];
  try {
    segments = head.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
  if (segments.length > MAX_SEGMENTS || segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
  const paths = segments.map((_, index) => segments.slice(0, index + 1).join('/'));
  const suffix = (prefixSegments: number) => {
    const restSegments = segments.slice(prefixSegments).map(encodeURIComponent).join('/');
    const afterHead = separator >= 0 ? body.slice(separator) : '';
    return `${restSegments ? `/${restSegments}` : ''}${afterHead}${query === undefined ? '' : `?${query}`}`;
  };
  return { group, paths, rest: suffix };
}

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/**
 * Web pages at an old path of a renamed or moved project or group redirect (302, as GitLab's
 * RoutableActions) to the same page at the new path, for a caller who may see what moved;
 * others get the page as if nothing were there (the app's 404), so a redirect never tells a
 * stranger where a private project went.
 */
export function createOldPathRedirects(deps: {
  authenticate(request: FastifyRequest): Promise<Actor>;
  redirects: Pick<RedirectRoutesRepository, 'longestMatch'>;
  canSeeProject(actor: Actor, fullPath: string): Promise<boolean>;
  canSeeNamespace(actor: Actor, fullPath: string): Promise<boolean>;
}) {
  return async function redirectFor(request: FastifyRequest): Promise<string | undefined> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const candidates = oldPathCandidates(request.url);
    if (!candidates) return undefined;
    const match = await deps.redirects.longestMatch(candidates.paths);
    if (!match) return undefined;
    const actor = await deps.authenticate(request).catch(() => null);
    if (!actor) return undefined;
    const visible =
      match.sourceType === 'project' ? await deps.canSeeProject(actor, match.newPath) : await deps.canSeeNamespace(actor, match.newPath);
    if (!visible) return undefined;
    return `${candidates.group ? '/groups' : ''}/${encodePath(match.newPath)}${candidates.rest(match.oldPath.split('/').length)}`;
  };
}

/** `.catch(hidden)` for the visibility checks: not found is "may not see". */
export const hidden = (error: unknown): false => nullIfNotFound(error) ?? false;
