import { listCommits, readRefs, type GitCommit } from '../../../git/index.js';
import type { RepositoryStorage } from '../../../domains/projects/repository-storage.js';
import type { EventBus } from '../../../platform/events.js';
import { Lru } from './lru.js';

/**
 * The git facts the merge widget shows, cached in this process so that the widget query
 * (polled, and refetched by every open page on every push) does not start git processes:
 * each git process costs more CPU than the rest of the query.
 *
 * - Branch tips are invalidated per project by `repository.pushed` (every push, API commit
 *   and branch change publishes it, in every process) and `merge_request.changed`; a short
 *   TTL bounds staleness after ref changes that publish nothing (an administrator's git).
 *   A fill started before an invalidation is never stored after it (generation check).
 * - Commit lists are keyed by the SHAs they are computed from, so they never go stale and
 *   are only bounded in number.
 */
const BRANCH_TIP_TTL_MS = 10_000;
/** GitLab's widget lists at most this many commits (MergeRequest#commits limit for the widget). */
const WIDGET_COMMITS_LIMIT = 100;

const HEADS = 'refs/heads/';

interface TipEntry {
  sha: Promise<string | null>;
  at: number;
}

export interface GitFacts {
  /** The branch's tip, or null when it does not exist. */
  branchTip(projectId: number, branch: string): Promise<string | null>;
  /** Commits in `from..to` without merge commits, newest first, at most WIDGET_COMMITS_LIMIT. */
  commitsWithoutMerges(projectId: number, from: string, to: string): Promise<GitCommit[]>;
  /** Forget the branch tips of a project (tests and callers that moved refs themselves). */
  invalidate(projectId: number): void;
  /** Moves whenever a project's branch tips were forgotten: answers built from them may be stale. */
  generation(): number;
}

export function createGitFacts(deps: {
  storage: Pick<RepositoryStorage, 'pathFor'>;
  events: Pick<EventBus, 'subscribe'>;
  now?: () => number;
  ttlMs?: number;
}): GitFacts {
  const now = deps.now ?? (() => Date.now());
  const ttl = deps.ttlMs ?? BRANCH_TIP_TTL_MS;
  const tips = new Lru<number, Map<string, TipEntry>>(10_000);
  const commitLists = new Lru<string, Promise<GitCommit[]>>(2_000);
  /** branches asked for in the same tick, per project: one for-each-ref for all of them */
  const pending = new Map<number, Map<string, (sha: Promise<string | null>) => void>>();

  let invalidations = 0;

  function invalidate(projectId: number): void {
    tips.delete(projectId);
    invalidations += 1;
  }
  deps.events.subscribe('repository.pushed', (event) => invalidate(event.payload.projectId));
  deps.events.subscribe('merge_request.changed', (event) => invalidate(event.payload.projectId));

  function flush(projectId: number): void {
    const wanted = pending.get(projectId);
    pending.delete(projectId);
    if (!wanted) return;
    const names = [...wanted.keys()];
    const read = readRefs(deps.storage.pathFor(projectId), names.map((name) => `${HEADS}${name}`)).then(
      (refs) => new Map(refs.map((ref) => [ref.ref.slice(HEADS.length), ref.target])),
    );
    for (const [name, resolve] of wanted) resolve(read.then((found) => found.get(name) ?? null));
  }

  /** A cached promise, dropped again when it fails (a failure is never cached). */
  function remember<K, V>(cache: Lru<K, Promise<V>>, key: K, compute: () => Promise<V>): Promise<V> {
    const cached = cache.get(key);
    if (cached) return cached;
    const value = compute();
    cache.set(key, value);
    value.catch(() => cache.get(key) === value && cache.delete(key));
    return value;
  }

  return {
    invalidate,
    generation: () => invalidations,

    branchTip(projectId, branch) {
      let branches = tips.get(projectId);
      const entry = branches?.get(branch);
      if (entry && now() - entry.at < ttl) return entry.sha;
      if (!branches) tips.set(projectId, (branches = new Map()));
      const sha = new Promise<Promise<string | null>>((resolve) => {
        let batch = pending.get(projectId);
        if (!batch) {
          pending.set(projectId, (batch = new Map()));
          queueMicrotask(() => flush(projectId));
        }
        batch.set(branch, resolve);
      }).then((inner) => inner);
      const stored: TipEntry = { sha, at: now() };
      // Stored in this generation's map only: an invalidation meanwhile replaced the map.
      branches.set(branch, stored);
      const generation = branches;
      sha.catch(() => generation.get(branch) === stored && generation.delete(branch));
      return sha;
    },

    commitsWithoutMerges(projectId, from, to) {
      return remember(commitLists, `${projectId}:${from}..${to}`, async () => {
        // Merge commits are filtered here (git's --no-merges is not in the history builder); a
        // few extra are read so that a handful of merges does not shorten the list.
        const page = await listCommits(deps.storage.pathFor(projectId), { ref: `${from}..${to}`, limit: WIDGET_COMMITS_LIMIT * 2 });
        return (page?.commits ?? []).filter((commit) => commit.parent_ids.length < 2).slice(0, WIDGET_COMMITS_LIMIT);
      });
    },
  };
}
