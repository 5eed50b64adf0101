/** SQL of labels: project and group labels, a project's priorities, and the labels of merge requests. */
import { on, type Queryable } from '../../platform/db/database.js';

export interface Label {
  id: number;
  project_id: number | null;
  group_id: number | null;
  title: string;
  color: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
  /** the project's priority for it (project reads only; null otherwise or when unprioritized) */
  priority: number | null;
}

/** Where labels are looked up: a project's own (if any) and those of a list of groups. */
export interface LabelScope {
  projectId: number | null;
  groupIds: number[];
  /** whose priorities to attach */
  priorityProjectId?: number | null;
}

export interface LabelCounts {
  open_issues_count: number;
  closed_issues_count: number;
  open_merge_requests_count: number;
}

const COLUMNS = 'l.id, l.project_id, l.group_id, l.title, l.color, l.description, l.created_at, l.updated_at, lp.priority';
const FROM = 'FROM labels l LEFT JOIN label_priorities lp ON lp.label_id = l.id AND lp.project_id = $1::bigint';
const IN_SCOPE = '(l.project_id = $2::bigint OR l.group_id = ANY($3::bigint[]))';
const scopeParams = (scope: LabelScope) => [scope.priorityProjectId ?? scope.projectId, scope.projectId, scope.groupIds];

export function createLabelsRepository(db: Queryable) {
  return {
    /** Labels of the scope, by title (then project labels first), optionally matching `search` in the title. */
    async list(scope: LabelScope, options: { search?: string } = {}): Promise<Label[]> {
      const { rows } = await db.query<Label>(
        `SELECT ${COLUMNS} ${FROM} WHERE ${IN_SCOPE} AND ($4::text IS NULL OR strpos(lower(l.title), lower($4)) > 0)
          ORDER BY lower(l.title), l.project_id NULLS LAST, l.id`,
        [...scopeParams(scope), options.search ?? null],
      );
      return rows;
    },
    /** One label of the scope by id, or by title (the project's own before a group's, nearer groups first). */
    async find(scope: LabelScope, idOrTitle: string, tx?: Queryable): Promise<Label | undefined> {
      const id = /^\d{1,18}$/.test(idOrTitle) ? idOrTitle : null;
      const { rows } = await on(db, tx).query<Label>(
        `SELECT ${COLUMNS} ${FROM} WHERE ${IN_SCOPE} AND (l.id = $5::bigint OR l.title = $4::text)
          ORDER BY (l.id = $5::bigint) DESC NULLS LAST, l.project_id NULLS LAST, array_position($3::bigint[], l.group_id) DESC NULLS LAST LIMIT 1`,
        [...scopeParams(scope), idOrTitle, id],
      );
      return rows[0];
    },
    /** Labels of the scope with these titles (exact), nearest owner first for each title. */
    async byTitles(scope: LabelScope, titles: string[], tx?: Queryable): Promise<Label[]> {
      if (titles.length === 0) return [];
      const { rows } = await on(db, tx).query<Label>(
        `SELECT DISTINCT ON (l.title) ${COLUMNS} ${FROM} WHERE ${IN_SCOPE} AND l.title = ANY($4::text[])
          ORDER BY l.title, l.project_id NULLS LAST, array_position($3::bigint[], l.group_id) DESC NULLS LAST`,
        [...scopeParams(scope), titles],
      );
      return rows;
    },
    async byIds(scope: LabelScope, ids: number[], tx?: Queryable): Promise<Label[]> {
      if (ids.length === 0) return [];
      const { rows } = await on(db, tx).query<Label>(`SELECT ${COLUMNS} ${FROM} WHERE ${IN_SCOPE} AND l.id = ANY($4::bigint[])`, [...scopeParams(scope), ids]);
      return rows;
    },
    /** Throws a unique violation when the owner already has a label of that title. */
    async insert(owner: { projectId: number } | { groupId: number }, input: { title: string; color: string; description: string | null }, tx?: Queryable): Promise<number> {
      const { rows } = await on(db, tx).query<{ id: number }>(
        'INSERT INTO labels (project_id, group_id, title, color, description) VALUES ($1, $2, $3, $4, $5) RETURNING id',
        ['projectId' in owner ? owner.projectId : null, 'groupId' in owner ? owner.groupId : null, input.title, input.color, input.description],
      );
      return rows[0]!.id;
    },
    async update(id: number, fields: { title?: string; color?: string; description?: string | null }, tx?: Queryable): Promise<void> {
      await on(db, tx).query(
        `UPDATE labels SET title = COALESCE($2, title), color = COALESCE($3, color),
           description = CASE WHEN $4::boolean THEN $5 ELSE description END, updated_at = now() WHERE id = $1`,
        [id, fields.title ?? null, fields.color ?? null, fields.description !== undefined, fields.description ?? null],
      );
    },
    async remove(id: number, tx?: Queryable): Promise<void> {
      await on(db, tx).query('DELETE FROM labels WHERE id = $1', [id]);
    },
    /** A project's priority for a label; null removes it. */
    async setPriority(projectId: number, labelId: number, priority: number | null, tx?: Queryable): Promise<void> {
      if (priority === null) await on(db, tx).query('DELETE FROM label_priorities WHERE project_id = $1 AND label_id = $2', [projectId, labelId]);
      else
        await on(db, tx).query(
          'INSERT INTO label_priorities (project_id, label_id, priority) VALUES ($1, $2, $3) ON CONFLICT (project_id, label_id) DO UPDATE SET priority = EXCLUDED.priority',
          [projectId, labelId, priority],
        );
    },
    /** Open merge requests carrying each label, within one project or the projects under some groups. */
    async counts(labelIds: number[], where: { projectId: number } | { groupId: number }): Promise<Map<number, LabelCounts>> {
      const result = new Map<number, LabelCounts>(labelIds.map((id) => [id, { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 }]));
      if (labelIds.length === 0) return result;
      const { rows } = await db.query<{ label_id: number; count: number }>(
        `SELECT x.label_id, count(*)::int AS count FROM merge_request_labels x JOIN merge_requests m ON m.id = x.merge_request_id
           JOIN projects p ON p.id = m.target_project_id JOIN namespaces n ON n.id = p.namespace_id
          WHERE x.label_id = ANY($1::bigint[]) AND m.state = 'opened'
            AND ${'projectId' in where ? 'p.id = $2::bigint' : '$2::bigint = ANY(n.traversal_ids)'}
          GROUP BY x.label_id`,
        [labelIds, 'projectId' in where ? where.projectId : where.groupId],
      );
      for (const row of rows) result.get(row.label_id)!.open_merge_requests_count = row.count;
      return result;
    },
    /** The labels of each merge request, by title. */
    async forMergeRequests(mergeRequestIds: readonly number[], tx?: Queryable): Promise<Map<number, Label[]>> {
      const result = new Map<number, Label[]>(mergeRequestIds.map((id) => [id, []]));
      if (mergeRequestIds.length === 0) return result;
      const { rows } = await on(db, tx).query<Label & { merge_request_id: number }>(
        `SELECT x.merge_request_id, ${COLUMNS} FROM merge_request_labels x JOIN merge_requests m ON m.id = x.merge_request_id
           JOIN labels l ON l.id = x.label_id LEFT JOIN label_priorities lp ON lp.label_id = l.id AND lp.project_id = m.target_project_id
          WHERE x.merge_request_id = ANY($1::bigint[]) ORDER BY lower(l.title), l.id`,
        [mergeRequestIds],
      );
      for (const { merge_request_id: id, ...label } of rows) result.get(id)?.push(label);
      return result;
    },
    /** Replaces a merge request's labels; kept labels keep their rows. */
    async setForMergeRequest(mergeRequestId: number, labelIds: number[], tx: Queryable): Promise<void> {
      await tx.query('DELETE FROM merge_request_labels WHERE merge_request_id = $1 AND NOT (label_id = ANY($2::bigint[]))', [mergeRequestId, labelIds]);
      await tx.query('INSERT INTO merge_request_labels (merge_request_id, label_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING', [mergeRequestId, labelIds]);
    },
    /**
     * Which of these labels the user is subscribed to, within a project (null: a group label
     * from its group), GitLab's Subscribable#subscribed?.
     */
    async subscribedIds(userId: number, labelIds: readonly number[], projectId: number | null, tx?: Queryable): Promise<Set<number>> {
      if (labelIds.length === 0) return new Set();
      const { rows } = await on(db, tx).query<{ label_id: number }>(
        'SELECT label_id FROM label_subscriptions WHERE user_id = $1 AND label_id = ANY($2::bigint[]) AND project_id IS NOT DISTINCT FROM $3::bigint',
        [userId, labelIds, projectId],
      );
      return new Set(rows.map((row) => Number(row.label_id)));
    },
    /** Subscribes or unsubscribes; true when that changed anything (false: it was already so). */
    async setSubscribed(userId: number, labelId: number, projectId: number | null, subscribed: boolean, tx?: Queryable): Promise<boolean> {
      const result = subscribed
        ? await on(db, tx).query(
            `INSERT INTO label_subscriptions (label_id, user_id, project_id) SELECT $1, $2, $3::bigint
              WHERE NOT EXISTS (SELECT 1 FROM label_subscriptions WHERE label_id = $1 AND user_id = $2 AND project_id IS NOT DISTINCT FROM $3::bigint)
              ON CONFLICT DO NOTHING`,
            [labelId, userId, projectId],
          )
        : await on(db, tx).query('DELETE FROM label_subscriptions WHERE label_id = $1 AND user_id = $2 AND project_id IS NOT DISTINCT FROM $3::bigint', [labelId, userId, projectId]);
      return (result.rowCount ?? 0) > 0;
    },
    /** Promotion: merge requests and priorities of `fromId` move to `toId`, then `fromId` goes. */
    async replace(fromId: number, toId: number, tx: Queryable): Promise<void> {
      await tx.query(
        `INSERT INTO merge_request_labels (merge_request_id, label_id, created_at) SELECT merge_request_id, $2, created_at FROM merge_request_labels WHERE label_id = $1 ON CONFLICT DO NOTHING`,
        [fromId, toId],
      );
      await tx.query(
        `INSERT INTO label_priorities (project_id, label_id, priority) SELECT project_id, $2, priority FROM label_priorities WHERE label_id = $1 ON CONFLICT DO NOTHING`,
        [fromId, toId],
      );
      await tx.query('DELETE FROM labels WHERE id = $1', [fromId]);
    },
  };
}

export type LabelsRepository = ReturnType<typeof createLabelsRepository>;
