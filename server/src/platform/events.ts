import type { Database, Queryable } from './db/database.js';
import type { Logger } from './logger.js';

/**
 * Domain events: written to `domain_events` inside the transaction that
 * caused them and announced with pg_notify, which PostgreSQL delivers to
 * every listening process (and PGlite to its own) only after commit.
 *
 * Two kinds of listeners:
 * - **reactions** (`react`) run inside the publishing transaction, in the
 *   publishing process only. Work that must happen (enqueueing a job, marking
 *   rows) belongs here: it commits or rolls back with the event, exactly once,
 *   however many processes run and whether or not any of them is listening.
 * - **subscribers** (`subscribe`) hear the notification in every process after
 *   commit. A notification sent while a process's listener reconnects is lost
 *   for that process, so subscribers only do what may be missed or repeated:
 *   dropping a cache, pushing a live update to an open page.
 */
export const EVENTS_CHANNEL = 'tributary_events';

export interface DomainEventMap {
  'repository.pushed': {
    projectId: number;
    userId: number | null;
    pushEventIds: number[];
    refs: { ref: string; oldSha: string; newSha: string }[];
    /** `git push -o` options, when the push had any */
    pushOptions?: string[];
  };
  'project.created': { projectId: number };
  'project.deleted': { projectId: number };
  'token.revoked': { tokenId: number; userId: number };
  /** a user's state or rights changed: cached authentications must be dropped */
  'user.changed': { userId: number };
  /**
   * Something the merge widget shows changed (a new version, a mergeability result, a
   * merge, a rebase, a state change); GraphQL subscriptions push it to open pages.
   */
  'merge_request.changed': { mergeRequestId: number; projectId: number };
  /** A new diff version was stored (after a push, retarget or reopen): diff threads are traced onto it. */
  'merge_request.version_recorded': { mergeRequestId: number; projectId: number; versionId: number; userId?: number | null };
  /** A row of merge_request_events was written (title, state, people, labels…): its system note is written in the same transaction. */
  'merge_request.event_recorded': { mergeRequestId: number; eventId: number };
}

export type DomainEventType = keyof DomainEventMap;

export interface DomainEvent<K extends DomainEventType = DomainEventType> {
  id: number;
  type: K;
  payload: DomainEventMap[K];
}

type Handler = (event: DomainEvent) => void | Promise<void>;
type Reaction = (event: DomainEvent, tx: Queryable) => Promise<void>;

/** Runs `type`'s reactions for events just written in `tx`. */
async function runReactions(reactions: readonly Reaction[], type: DomainEventType, events: { id: number; payload: unknown }[], tx: Queryable): Promise<void> {
  for (const { id, payload } of events) {
    for (const reaction of reactions) await reaction({ id, type, payload } as DomainEvent, tx);
  }
}

export interface EventBus {
  publish<K extends DomainEventType>(type: K, payload: DomainEventMap[K], tx?: Queryable): Promise<number>;
  /**
   * Many events of one type in one statement (a push that marks many merge requests):
   * subscribers still receive one event per payload. Returns the ids in payload order.
   */
  publishMany<K extends DomainEventType>(type: K, payloads: readonly DomainEventMap[K][], tx?: Queryable): Promise<number[]>;
  /**
   * Every process, after commit, best effort (see above): caches and live updates only.
   * Never start work that must happen from here; use `react`.
   */
  subscribe<K extends DomainEventType>(type: K, handler: (event: DomainEvent<K>) => void | Promise<void>): () => void;
  /**
   * Runs `reaction` inside the transaction that publishes each event of `type` (a publish
   * without a transaction opens one), so the follow-up work it enqueues or writes commits
   * with the event, once. A reaction that throws rolls the event and its cause back.
   */
  react<K extends DomainEventType>(type: K, reaction: (event: DomainEvent<K>, tx: Queryable) => Promise<void>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createEventBus(deps: { db: Database; logger: Pick<Logger, 'error'> }): EventBus {
  const handlers = new Map<DomainEventType, Set<Handler>>();
  const reactions = new Map<DomainEventType, Reaction[]>();
  let unlisten: (() => Promise<void>) | undefined;

  /** `fn` in the caller's transaction, or in a new one when the type has reactions to run. */
  function inTransaction<T>(type: DomainEventType, tx: Queryable | undefined, fn: (q: Queryable) => Promise<T>): Promise<T> {
    if (tx || !reactions.has(type)) return fn(tx ?? deps.db);
    return deps.db.transaction(fn);
  }

  async function deliver(raw: string): Promise<void> {
    const { id, type } = JSON.parse(raw) as { id: number; type: DomainEventType };
    const set = handlers.get(type);
    if (!set || set.size === 0) return;
    const { rows } = await deps.db.query<{ payload: unknown }>('SELECT payload FROM domain_events WHERE id = $1', [id]);
    if (!rows[0]) return;
    const event = { id, type, payload: rows[0].payload } as DomainEvent;
    for (const handler of set) {
      try {
        await handler(event);
      } catch (error) {
        deps.logger.error({ err: error, eventId: id, type }, 'domain event handler failed');
      }
    }
  }

  return {
    publish(type, payload, tx) {
      return inTransaction(type, tx, async (q) => {
        const { rows } = await q.query<{ id: number }>(
          'INSERT INTO domain_events (type, payload) VALUES ($1, $2) RETURNING id',
          [type, JSON.stringify(payload)],
        );
        const id = rows[0]!.id;
        // Only the id and type travel in the notification: NOTIFY payloads are capped at 8000 bytes.
        await q.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, JSON.stringify({ id, type })]);
        await runReactions(reactions.get(type) ?? [], type, [{ id, payload }], q);
        return id;
      });
    },
    async publishMany(type, payloads, tx) {
      if (payloads.length === 0) return [];
      return inTransaction(type, tx, async (q) => {
        // One row and one notification per payload, written by a single statement. Identity
        // values are drawn in insertion order (WITH ORDINALITY keeps payload order), so the
        // sorted ids line up with the payloads.
        const { rows } = await q.query<{ id: number }>(
          `WITH inserted AS (
             INSERT INTO domain_events (type, payload)
             SELECT $2, payload FROM unnest($3::jsonb[]) WITH ORDINALITY AS p(payload, n) ORDER BY n
             RETURNING id
           )
           SELECT id, pg_notify($1, json_build_object('id', id, 'type', $2::text)::text) FROM inserted ORDER BY id`,
          [EVENTS_CHANNEL, type, payloads.map((payload) => JSON.stringify(payload))],
        );
        const ids = rows.map((row) => row.id);
        await runReactions(reactions.get(type) ?? [], type, ids.map((id, index) => ({ id, payload: payloads[index] })), q);
        return ids;
      });
    },
    react(type, reaction) {
      const list = reactions.get(type) ?? [];
      list.push(reaction as Reaction);
      reactions.set(type, list);
    },
    subscribe(type, handler) {
      let set = handlers.get(type);
      if (!set) handlers.set(type, (set = new Set()));
      set.add(handler as Handler);
      return () => set.delete(handler as Handler);
    },
    async start() {
      unlisten = await deps.db.listen(EVENTS_CHANNEL, (raw) => {
        deliver(raw).catch((error) => deps.logger.error({ err: error }, 'domain event delivery failed'));
      });
    },
    async stop() {
      await unlisten?.();
    },
  };
}
