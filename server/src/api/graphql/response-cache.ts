import type { Actor } from '../../auth/actor.js';
import { CACHED_READ_MAX_AGE_MS } from '../../platform/db/cached-read.js';

const MAX_ENTRIES = 5_000;
/** Longer queries are answered but not kept (the web app's are a few KiB). */
const MAX_QUERY_LENGTH = 16_384;

interface Entry {
  /** encoded once, written as is to every caller that asks again */
  body: Buffer;
  generation: number;
  storedAt: number;
}

export interface GraphqlRequestBody {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/**
 * Whole answers to GraphQL queries, per caller, kept until anything they could have been
 * built from may have changed. Every page showing a merge request asks the same widget
 * query again and again (on load, on every subscription message, when polling), and
 * between changes the answer is the same: GitLab answers such polls from an ETag cache
 * for the same reason.
 *
 * `generation` must move whenever any input of any query may have changed: the schema
 * reads only tables the write watch counts (see `WATCHED_TABLES`) and the git facts cache,
 * and registerGraphql sums their generations. A query answered while the generation moved
 * is not kept; an entry older than the cached reads' age limit is asked again. Only
 * queries are kept (never mutations or subscriptions), only without errors, and the key
 * holds everything that makes two callers' answers differ: user, how it authenticated and
 * the token's scopes.
 */
export function createResponseCache(deps: { generation: () => number; now?: () => number }) {
  const entries = new Map<string, Entry>();
  const now = deps.now ?? Date.now;

  return {
    /** The cache key of a request, or null when its answer must not be kept. */
    keyOf(actor: Actor, body: GraphqlRequestBody | undefined): string | null {
      const query = body?.query;
      if (typeof query !== 'string' || query.length > MAX_QUERY_LENGTH || !isQueryOnly(query)) return null;
      const who = actor.user ? `${actor.user.id}:${actor.via}:${actor.scopes?.join(',') ?? ''}` : 'anonymous';
      return `${who}\n${typeof body?.operationName === 'string' ? body.operationName : ''}\n${JSON.stringify(body?.variables ?? null)}\n${query}`;
    },

    /** The kept answer, if it is still current. */
    get(key: string): Buffer | undefined {
      const hit = entries.get(key);
      return hit && hit.generation === deps.generation() && now() - hit.storedAt < CACHED_READ_MAX_AGE_MS ? hit.body : undefined;
    },

    generation: deps.generation,

    /** Keeps an answer computed from inputs of `generation`, unless they moved meanwhile or it holds errors. */
    store(key: string, generation: number, body: string): void {
      if (generation !== deps.generation() || !body.startsWith('{"data":') || body.includes('"errors":')) return;
      entries.delete(key);
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(key, { body: Buffer.from(body), generation, storedAt: now() });
    },
  };
}

export type ResponseCache = ReturnType<typeof createResponseCache>;

/**
 * True when a document holds only query operations (and fragments). Conservative: a
 * `mutation` or `subscription` keyword anywhere outside strings and comments says no, so a
 * field or argument of that name merely costs the cache.
 */
export function isQueryOnly(document: string): boolean {
  const code = document.replace(/"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*/g, ' ');
  return !/\b(?:mutation|subscription)\b/.test(code);
}
