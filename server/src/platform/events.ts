import type { Database, Queryable } from './db/database.js';
import type { Logger } from './logger.js';

/**
 * Domain events: written to `domain_events` inside the transaction that
 * caused them and announced with pg_notify, which PostgreSQL delivers to
 * every listening process (and PGlite to its own) only after commit. A
 * subscriber that was down can catch up from the table by id.
 */
export const EVENTS_CHANNEL = 'tributary_events';

export interface DomainEventMap {
  'repository.pushed': {
    projectId: number;
    userId: number | null;
    pushEventIds: number[];
    refs: { ref: string; oldSha: string; newSha: string }[];
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
  'merge_request.version_recorded': { mergeRequestId: number; projectId: number; versionId: number };
}

export type DomainEventType = keyof DomainEventMap;

export interface DomainEvent<K extends DomainEventType = DomainEventType> {
  id: number;
  type: K;
  payload: DomainEventMap[K];
}

type Handler = (event: DomainEvent) => void | Promise<void>;

export interface EventBus {
  publish<K extends DomainEventType>(type: K, payload: DomainEventMap[K], tx?: Queryable): Promise<number>;
  /**
   * Many events of one type in one statement (a push that marks many merge requests):
   * subscribers still receive one event per payload. Returns the ids in payload order.
   */
  publishMany<K extends DomainEventType>(type: K, payloads: readonly DomainEventMap[K][], tx?: Queryable): Promise<number[]>;
  subscribe<K extends DomainEventType>(type: K, handler: (event: DomainEvent<K>) => void | Promise<void>): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createEventBus(deps: { db: Database; logger: Pick<Logger, 'error'> }): EventBus {
  const handlers = new Map<DomainEventType, Set<Handler>>();
  let unlisten: (() => Promise<void>) | undefined;

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
    async publish(type, payload, tx) {
      const q = tx ?? deps.db;
      const { rows } = await q.query<{ id: number }>(
        'INSERT INTO domain_events (type, payload) VALUES ($1, $2) RETURNING id',
        [type, JSON.stringify(payload)],
      );
      const id = rows[0]!.id;
      // Only the id and type travel in the notification: NOTIFY payloads are capped at 8000 bytes.
      await q.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, JSON.stringify({ id, type })]);
      return id;
    },
    async publishMany(type, payloads, tx) {
      if (payloads.length === 0) return [];
      // One row and one notification per payload, written by a single statement. Identity
      // values are drawn in insertion order (WITH ORDINALITY keeps payload order), so the
      // sorted ids line up with the payloads.
      const { rows } = await (tx ?? deps.db).query<{ id: number }>(
        `WITH inserted AS (
           INSERT INTO domain_events (type, payload)
           SELECT $2, payload FROM unnest($3::jsonb[]) WITH ORDINALITY AS p(payload, n) ORDER BY n
           RETURNING id
         )
         SELECT id, pg_notify($1, json_build_object('id', id, 'type', $2::text)::text) FROM inserted ORDER BY id`,
        [EVENTS_CHANNEL, type, payloads.map((payload) => JSON.stringify(payload))],
      );
      return rows.map((row) => row.id);
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
