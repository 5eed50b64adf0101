import type { Queryable } from '../../platform/db/database.js';
import { USER_COLUMNS, type User } from '../users/user.js';

export interface PushEventRow {
  id: number;
  project_id: number;
  ref: string;
  old_sha: string;
  new_sha: string;
  created_at: Date;
  author: User;
}

export interface PushEventFilter {
  projectId: number;
  authorId?: number;
  /** only events created on or after this instant */
  after?: Date;
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const AUTHOR_JSON = `json_build_object(${USER_COLUMNS.split(', ')
  .map((column) => `'${column}', u.${column}`)
  .join(', ')})`;

/** Push events of one project, newest first by default, with their authors (GitLab's Events API). */
export function createPushEventsRepository(db: Queryable) {
  return {
    async list(filter: PushEventFilter): Promise<{ events: PushEventRow[]; total: number }> {
      const params: unknown[] = [filter.projectId];
      const where = ['e.project_id = $1'];
      if (filter.authorId !== undefined) {
        params.push(filter.authorId);
        where.push(`e.user_id = $${params.length}`);
      }
      if (filter.after) {
        params.push(filter.after);
        where.push(`e.created_at >= $${params.length}`);
      }
      const clause = where.join(' AND ');
      params.push(filter.limit, filter.offset);
      const [page, count] = await Promise.all([
        db.query<PushEventRow & { author: Record<string, unknown> }>(
          `SELECT e.id, e.project_id, e.ref, e.old_sha, e.new_sha, e.created_at, ${AUTHOR_JSON} AS author
             FROM push_events e JOIN users u ON u.id = e.user_id WHERE ${clause}
            ORDER BY e.id ${filter.sort === 'asc' ? 'ASC' : 'DESC'} LIMIT $${params.length - 1} OFFSET $${params.length}`,
          params,
        ),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM push_events e JOIN users u ON u.id = e.user_id WHERE ${clause}`, params.slice(0, -2)),
      ]);
      const events = page.rows.map((row) => ({ ...row, author: { ...row.author, created_at: new Date(String(row.author.created_at)) } as unknown as User }));
      return { events, total: count.rows[0]!.count };
    },
  };
}

export type PushEventsRepository = ReturnType<typeof createPushEventsRepository>;
