/** SQL of project and group milestones. */
import { on, type Queryable } from '../../platform/db/database.js';
import type { MilestoneState } from './milestone-rules.js';

export interface Milestone {
  id: number;
  iid: number;
  project_id: number | null;
  group_id: number | null;
  title: string;
  description: string | null;
  /** `YYYY-MM-DD` */
  start_date: string | null;
  due_date: string | null;
  state: MilestoneState;
  created_at: Date;
  updated_at: Date;
  /** the owner's full path, for web_url */
  owner_full_path: string;
}

export interface MilestoneScope {
  projectId: number | null;
  groupIds: number[];
}

export interface MilestoneFilter {
  iids?: number[];
  state?: MilestoneState;
  title?: string;
  search?: string;
}

const SELECT = `SELECT ms.id, ms.iid, ms.project_id, ms.group_id, ms.title, ms.description, to_char(ms.start_date, 'YYYY-MM-DD') AS start_date,
       to_char(ms.due_date, 'YYYY-MM-DD') AS due_date, ms.state, ms.created_at, ms.updated_at, coalesce(rp.path, rg.path) AS owner_full_path
  FROM milestones ms
  LEFT JOIN routes rp ON rp.source_type = 'project' AND rp.source_id = ms.project_id
  LEFT JOIN routes rg ON rg.source_type = 'namespace' AND rg.source_id = ms.group_id`;
const IN_SCOPE = '(ms.project_id = $1::bigint OR ms.group_id = ANY($2::bigint[]))';

export type MilestoneFields = Partial<Pick<Milestone, 'title' | 'description' | 'start_date' | 'due_date' | 'state'>>;

export function createMilestonesRepository(db: Queryable) {
  return {
    async list(scope: MilestoneScope, filter: MilestoneFilter, page: { limit: number; offset: number }): Promise<{ milestones: Milestone[]; total: number }> {
      const where = `${IN_SCOPE} AND ($3::int[] IS NULL OR ms.iid = ANY($3::int[])) AND ($4::text IS NULL OR ms.state = $4)
        AND ($5::text IS NULL OR ms.title = $5)
        AND ($6::text IS NULL OR strpos(lower(ms.title), lower($6)) > 0 OR strpos(lower(coalesce(ms.description, '')), lower($6)) > 0)`;
      const params = [scope.projectId, scope.groupIds, filter.iids ?? null, filter.state ?? null, filter.title ?? null, filter.search ?? null];
      const [rows, count] = await Promise.all([
        // GitLab's default: due date first (none last), then title
        db.query<Milestone>(`${SELECT} WHERE ${where} ORDER BY ms.due_date ASC NULLS LAST, ms.title ASC, ms.id LIMIT ${page.limit} OFFSET ${page.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM milestones ms WHERE ${where}`, params),
      ]);
      return { milestones: rows.rows, total: count.rows[0]!.count };
    },
    async find(scope: MilestoneScope, id: number, tx?: Queryable): Promise<Milestone | undefined> {
      const { rows } = await on(db, tx).query<Milestone>(`${SELECT} WHERE ${IN_SCOPE} AND ms.id = $3`, [scope.projectId, scope.groupIds, id]);
      return rows[0];
    },
    async byIds(ids: number[], tx?: Queryable): Promise<Map<number, Milestone>> {
      if (ids.length === 0) return new Map();
      const { rows } = await on(db, tx).query<Milestone>(`${SELECT} WHERE ms.id = ANY($1::bigint[])`, [ids]);
      return new Map(rows.map((row) => [row.id, row]));
    },
    /** A milestone of the scope by iid (projects) or title, for Markdown references. */
    async findByReference(scope: MilestoneScope, ref: { iid?: number; title?: string }): Promise<Milestone | undefined> {
      const { rows } = await db.query<Milestone>(
        `${SELECT} WHERE ${IN_SCOPE} AND (($3::int IS NOT NULL AND ms.project_id = $1::bigint AND ms.iid = $3) OR ($4::text IS NOT NULL AND ms.title = $4))
          ORDER BY ms.project_id NULLS LAST LIMIT 1`,
        [scope.projectId, scope.groupIds, ref.iid ?? null, ref.title ?? null],
      );
      return rows[0];
    },
    /** Throws a unique violation when the owner has a milestone of that title; iids are serialised per owner. */
    async insert(owner: { projectId: number } | { groupId: number }, input: { title: string; description: string | null; startDate: string | null; dueDate: string | null }, tx: Queryable): Promise<number> {
      const projectId = 'projectId' in owner ? owner.projectId : null;
      const groupId = 'groupId' in owner ? owner.groupId : null;
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`milestone-iid:${projectId ?? 'g' + groupId}`]);
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO milestones (iid, project_id, group_id, title, description, start_date, due_date)
         VALUES ((SELECT coalesce(max(iid), 0) + 1 FROM milestones WHERE project_id IS NOT DISTINCT FROM $1::bigint AND group_id IS NOT DISTINCT FROM $2::bigint),
                 $1, $2, $3, $4, $5::date, $6::date) RETURNING id`,
        [projectId, groupId, input.title, input.description, input.startDate, input.dueDate],
      );
      return rows[0]!.id;
    },
    async update(id: number, fields: MilestoneFields, tx?: Queryable): Promise<void> {
      const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
      if (entries.length === 0) return;
      // Column names come from MilestoneFields keys chosen by the service, never from a request.
      const sets = entries.map(([column], index) => `${column} = $${index + 2}${column.endsWith('_date') ? '::date' : ''}`);
      await on(db, tx).query(`UPDATE milestones SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [id, ...entries.map(([, value]) => value)]);
    },
    async remove(id: number, tx?: Queryable): Promise<void> {
      await on(db, tx).query('DELETE FROM milestones WHERE id = $1', [id]);
    },
    /** Promotion: merge requests move from `fromId` to `toId`, then `fromId` goes. */
    async replace(fromId: number, toId: number, tx: Queryable): Promise<void> {
      await tx.query('UPDATE merge_requests SET milestone_id = $2 WHERE milestone_id = $1', [fromId, toId]);
      await tx.query('DELETE FROM milestones WHERE id = $1', [fromId]);
    },
  };
}

export type MilestonesRepository = ReturnType<typeof createMilestonesRepository>;
