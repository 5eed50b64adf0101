import type { Actor } from '../../auth/actor.js';
import { cachedRead } from '../../platform/db/cached-read.js';
import { WATCHED_TABLES, type WriteWatch } from '../../platform/db/write-watch.js';

/** Everything about the caller that can change what an entity shows them. */
export function callerKey(actor: Actor): string {
  const user = actor.user;
  // a CI job token acts for its user only inside its job's project, so that project is part of who asks
  return user ? `${user.id}:${user.is_admin}:${actor.via}:${actor.scopes?.join(',') ?? ''}:${actor.jobProjectId ?? ''}` : 'anonymous';
}

/**
 * Whole JSON answers of a polled read endpoint, serialised once and kept per key until any
 * watched table is written (`platform/db/write-watch.ts`; the 10 s age limit of
 * `cached-read.ts` bounds what no write announces). GitLab's clients poll the merge request
 * endpoints, and between changes the answer is the same: building and serialising the entity
 * was most of a warm request's CPU.
 *
 * The rule for using it: `render` reads only watched tables (through the cached reads or not),
 * and the key holds every argument the answer depends on, the caller included (`callerKey`).
 * Authorization stays outside: the route decides per request whether the caller may see the
 * subject, then asks here for the answer. Without a watch (tests building a bare context)
 * every call renders.
 */
export function renderedAnswers<A extends unknown[], R extends string | Readonly<{ body: string }>>(
  watch: Pick<WriteWatch, 'generation'> | undefined,
  render: (...args: A) => Promise<R>,
  key: (...args: A) => string,
  limits: { maxEntries: number } = { maxEntries: 2_000 },
): (...args: A) => Promise<R> {
  if (!watch) return render;
  // Memory stays bounded: at most maxEntries answers of at most MAX_KEPT_ANSWER_LENGTH each.
  const keep = (value: R) => (typeof value === 'string' ? value : value.body).length <= MAX_KEPT_ANSWER_LENGTH;
  return cachedRead(watch, render, { tables: WATCHED_TABLES, key, keep, maxEntries: limits.maxEntries });
}

/** Longer answers (a page of 100 large merge requests) are answered but not kept. */
export const MAX_KEPT_ANSWER_LENGTH = 256 * 1024;
