import type { Database, Queryable } from './database.js';

/**
 * Counters that move whenever rows of watched tables may have changed, for
 * caches of data read from them (`cached-read.ts`). A table's counter moves
 *
 * - in this process, right after a statement that writes the table ends, or
 *   after the transaction holding one ends (commit or rollback), so a request
 *   that follows its own write reads fresh data;
 * - for every process, when PostgreSQL announces a committed change on the
 *   watch's channel (statement triggers call pg_notify with the table's name),
 *   which covers other processes and writes made outside the server.
 *
 * Both follow one list, WATCHED_TABLES: the in-process side matches its names
 * in statements, and the triggers are made from it (`syncWriteTriggers`, run
 * when the watch starts), so a table added to the list cannot be left without
 * its trigger, nor a table removed from it keep one.
 *
 * A cache records the generation of the tables it reads before it reads, and
 * keeps the answer only if that generation has not moved meanwhile: a read
 * that raced a commit is never kept.
 */
export interface WriteWatch {
  /** A number that changes whenever one of `tables` may have been written. */
  generation(tables: readonly string[]): number;
  /** LISTEN on the channel; resolves to a stop function. */
  start(): Promise<() => Promise<void>>;
}

/** Where the statement triggers announce committed writes (the function is migration 0010's). */
export const TABLE_WRITES_CHANNEL = 'tributary_table_writes';

/** Every table some cache reads; each gets its statement trigger from here (`syncWriteTriggers`). */
export const WATCHED_TABLES = [
  'projects', 'routes', 'namespaces', 'project_members', 'group_members', 'users',
  'merge_requests', 'merge_request_diffs', 'merge_request_blocks', 'merge_intents', 'notes', 'discussions',
  'merge_request_assignees', 'merge_request_reviewers',
  'protected_branches', 'protected_branch_access_levels', 'award_emoji',
  'labels', 'merge_request_labels', 'label_priorities', 'label_subscriptions', 'milestones',
  // the merge widget shows the merge request's pipeline and its checks read it
  'ci_pipelines',
  // approvals: the approval state feeds NOT_APPROVED and the widget
  'merge_request_approvals', 'approval_project_rules', 'approval_project_rule_users', 'approval_project_rule_groups',
  'approval_project_rule_protected_branches', 'approval_merge_request_rules', 'approval_merge_request_rule_users',
  'approval_merge_request_rule_groups', 'approval_settings', 'approval_instance_settings',
  // merge trains: a merge request's car and position (domains/merge-trains/)
  'merge_trains',
  // auto-merge: the widget shows the setting (domains/auto-merge/)
  'merge_request_auto_merges',
] as const;

/**
 * The watched tables a statement writes: INSERT INTO t, UPDATE t, DELETE FROM t, TRUNCATE t,
 * MERGE INTO t, CTEs included, with or without quotes and the `public.` schema.
 */
export function tablesWrittenBy(tables: readonly string[]): (sql: string) => readonly string[] {
  const pattern = new RegExp(
    `\\b(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|MERGE\\s+INTO|TRUNCATE(?:\\s+TABLE)?)\\s+(?:ONLY\\s+)?(?:"?public"?\\.)?"?(${tables.join('|')})\\b`,
    'gi',
  );
  const known = new Map<string, readonly string[]>();
  return (sql) => {
    let written = known.get(sql);
    if (written === undefined) {
      written = [...new Set([...sql.matchAll(pattern)].map((match) => match[1]!.toLowerCase()))];
      // Statement texts are a bounded set in practice; the cap keeps a surprise from growing it forever.
      if (known.size < 10_000) known.set(sql, written);
    }
    return written;
  };
}

/** The statement trigger function of migration 0010: pg_notify(TABLE_WRITES_CHANNEL, TG_TABLE_NAME). */
const TRIGGER_FUNCTION = 'tributary_notify_table_write';
/** pg_advisory_xact_lock key: processes starting together change the triggers one at a time. */
const TRIGGERS_LOCK = 727_101;
const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Makes the write-announcing statement triggers exactly those of `tables`: a missing one is
 * created, one on a table no longer listed is dropped. Nothing changes when they agree (the
 * usual start: one catalog query).
 */
export async function syncWriteTriggers(db: Pick<Database, 'transaction'>, tables: readonly string[] = WATCHED_TABLES): Promise<{ created: string[]; dropped: string[] }> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [TRIGGERS_LOCK]);
    const { rows } = await tx.query<{ table: string; trigger: string }>(
      `SELECT c.relname AS table, t.tgname AS trigger FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE p.proname = $1 AND NOT t.tgisinternal`,
      [TRIGGER_FUNCTION],
    );
    const present = new Set(rows.map((row) => row.table));
    const created = tables.filter((table) => !present.has(table));
    const stale = rows.filter((row) => !tables.includes(row.table));
    for (const table of created) {
      await tx.query(
        `CREATE TRIGGER ${quoteIdent(`${table}_notify_write`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${quoteIdent(table)}
           FOR EACH STATEMENT EXECUTE FUNCTION ${TRIGGER_FUNCTION}()`,
      );
    }
    for (const { table, trigger } of stale) await tx.query(`DROP TRIGGER ${quoteIdent(trigger)} ON ${quoteIdent(table)}`);
    return { created, dropped: stale.map((row) => row.table) };
  });
}

/** Wraps `db` so that writes to `tables` move the watch's counters. */
export function watchWrites(db: Database, tables: readonly string[] = WATCHED_TABLES, channel = TABLE_WRITES_CHANNEL): { db: Database; watch: WriteWatch } {
  const written = tablesWrittenBy(tables);
  const counters = new Map<string, number>(tables.map((table) => [table, 0]));
  const bump = (table: string) => {
    const count = counters.get(table);
    if (count !== undefined) counters.set(table, count + 1);
  };

  const watched: Database = {
    kind: db.kind,
    sessionName: db.sessionName,
    async query(text, params, options) {
      try {
        return await db.query(text, params, options);
      } finally {
        for (const table of written(text)) bump(table);
      }
    },
    async transaction(fn) {
      const wrote = new Set<string>();
      try {
        return await db.transaction((tx: Queryable) =>
          fn({
            query(text, params, options) {
              for (const table of written(text)) wrote.add(table);
              return tx.query(text, params, options);
            },
          }),
        );
      } finally {
        for (const table of wrote) bump(table);
      }
    },
    listen: (name, handler) => db.listen(name, handler),
    close: () => db.close(),
  };

  return {
    db: watched,
    watch: {
      generation(of) {
        let sum = 0;
        for (const table of of) sum += counters.get(table) ?? 0;
        return sum;
      },
      async start() {
        await syncWriteTriggers(db, tables);
        return db.listen(channel, (table) => bump(table));
      },
    },
  };
}
