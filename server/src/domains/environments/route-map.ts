/**
 * Route maps, GitLab's `.gitlab/route-map.yml`: a list of `{source, public}` entries mapping the
 * repository's source files to the paths the deployed site serves them at, so a merge request's
 * deployment can link straight to the pages it changed ('View app' with the changed pages).
 *
 * GitLab's rules (Gitlab::RouteMap, EnvironmentStatus#changes, Environment#external_url_for):
 * - the file is a YAML array of hashes, each with a `source` and a `public` key;
 * - a `source` between slashes (`/source/(.+?\.html).*\/`) is a regular expression matched
 *   against the whole path (anchored at both ends; `\/` inside is a slash); any other source is
 *   a path compared for equality;
 * - the first entry that matches a path wins, and its `public` is the path with `\1`…`\9`
 *   replaced by the groups (`\0` by the whole match);
 * - a changed page is listed only when its public path has no extension or a page's
 *   (html, htm, shtml, php, asp, cgi, pl), and its link is the environment's external url and
 *   the public path joined by one slash.
 * A route map that breaks these rules counts as none (GitLab rescues its FormatError): no changes.
 * The expressions run on RE2 (linear time whatever the pattern). Pure.
 */
import { RE2JS } from 're2js';
import { parse } from 'yaml';

export const ROUTE_MAP_PATH = '.gitlab/route-map.yml';

/** The most bytes of route map read (a larger file counts as none). */
export const MAX_ROUTE_MAP_BYTES = 64 * 1024;

export interface RouteMapEntry {
  source: RE2JS | string;
  public: string;
}

export type RouteMapResult = { ok: true; entries: RouteMapEntry[] } | { ok: false; error: string };

/** GitLab's FormatError messages, word for word. */
export const ROUTE_MAP_ERRORS = {
  yaml: 'Route map is not valid YAML',
  array: 'Route map is not an array',
  hash: 'Route map entry is not a hash',
  source: 'Route map entry does not have a source key',
  public: 'Route map entry does not have a public key',
  regexp: 'Route map entry source is not a valid regular expression',
} as const;

const isHash = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseEntry(entry: unknown): RouteMapEntry | string {
  if (!isHash(entry)) return ROUTE_MAP_ERRORS.hash;
  if (!('source' in entry)) return ROUTE_MAP_ERRORS.source;
  if (!('public' in entry)) return ROUTE_MAP_ERRORS.public;
  const source = String(entry.source ?? '');
  const publicPath = String(entry.public ?? '');
  if (source.length >= 2 && source.startsWith('/') && source.endsWith('/')) {
    const pattern = source.slice(1, -1).replaceAll('\\/', '/');
    try {
      return { source: RE2JS.compile(`^(?:${pattern})$`), public: publicPath };
    } catch (error) {
      return `${ROUTE_MAP_ERRORS.regexp}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return { source, public: publicPath };
}

/** The route map in `text`, or GitLab's error for it. */
export function parseRouteMap(text: string): RouteMapResult {
  let data: unknown;
  try {
    data = parse(text, { maxAliasCount: 100 });
  } catch {
    return { ok: false, error: ROUTE_MAP_ERRORS.yaml };
  }
  if (!Array.isArray(data)) return { ok: false, error: ROUTE_MAP_ERRORS.array };
  const entries: RouteMapEntry[] = [];
  for (const item of data) {
    const entry = parseEntry(item);
    if (typeof entry === 'string') return { ok: false, error: entry };
    entries.push(entry);
  }
  return { ok: true, entries };
}

/** `\0`…`\9` in `template` replaced by the match's groups (a group that did not take part is empty). */
function substitute(template: string, group: (index: number) => string | null, groups: number): string {
  return template.replace(/\\(\d)/g, (_, digit: string) => {
    const index = Number(digit);
    return index <= groups ? (group(index) ?? '') : '';
  });
}

/** The public path the route map gives a source path, or null when no entry matches (GitLab's public_path_for_source_path). */
export function publicPathFor(entries: readonly RouteMapEntry[], path: string): string | null {
  for (const entry of entries) {
    if (typeof entry.source === 'string') {
      if (entry.source === path) return substitute(entry.public, (index) => (index === 0 ? path : null), 0);
      continue;
    }
    const matcher = entry.source.matcher(path);
    if (matcher.matches()) return substitute(entry.public, (index) => matcher.group(index), matcher.groupCount());
  }
  return null;
}

/** GitLab's page extensions: a public path with another extension is not a page to link. */
const PAGE_EXTENSION = /^\.(s?html?|php|asp|cgi|pl)$/i;

/** Ruby's File.extname: the last dot of the last segment, unless the name starts with it or ends with it. */
function extname(path: string): string {
  const name = path.split('/').pop() ?? '';
  const dot = name.lastIndexOf('.');
  return dot <= 0 || dot === name.length - 1 ? '' : name.slice(dot);
}

/** The external url joined with the public path by one slash (GitLab's external_url_for); null without an external url. */
export function externalUrlFor(externalUrl: string | null, publicPath: string): string | null {
  if (!externalUrl) return null;
  return `${externalUrl.replace(/\/$/, '')}/${publicPath.replace(/^\//, '')}`;
}

/**
 * A deployment's changed pages (GitLab's EnvironmentStatus#changes): for each path the merge
 * request changes (deleted files left out by the caller), in order, its public path and link.
 */
export function changedPages(entries: readonly RouteMapEntry[], changedPaths: readonly string[], externalUrl: string | null): { path: string; external_url: string | null }[] {
  const pages: { path: string; external_url: string | null }[] = [];
  for (const path of changedPaths) {
    const publicPath = publicPathFor(entries, path);
    if (publicPath === null) continue;
    const extension = extname(publicPath);
    if (extension !== '' && !PAGE_EXTENSION.test(extension)) continue;
    pages.push({ path: publicPath, external_url: externalUrlFor(externalUrl, publicPath) });
  }
  return pages;
}
