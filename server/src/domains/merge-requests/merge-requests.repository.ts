import { on, type Queryable } from '../../platform/db/database.js';
import type { EventBus } from '../../platform/events.js';
import { USER_COLUMNS, type User } from '../users/user.js';
import { usersByIds } from '../users/users.repository.js';
import { buildListQuery, type MergeRequestListFilter, type Viewer } from './list-filter.js';
import type { MergeRequest, MergeRequestEventAction, MergeRequestState } from './merge-request.js';

const FROM = `FROM merge_requests m
  JOIN projects p ON p.id = m.target_project_id
  JOIN namespaces n ON n.id = p.namespace_id
  JOIN routes r ON r.source_type = 'project' AND r.source_id = p.id
  LEFT JOIN merge_request_diffs d ON d.id = m.latest_diff_id`;

const SELECT = `SELECT m.*, d.base_commit_sha, d.start_commit_sha, d.head_commit_sha, d.real_size, d.commits_count,
       r.path AS target_full_path, p.squash_option AS target_squash_option ${FROM}`;

export interface NewMergeRequest {
  iid: number;
  targetProjectId: number;
  sourceProjectId: number;
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description: string;
  draft: boolean;
  authorId: number;
  allowCollaboration: boolean;
  squash: boolean;
  forceRemoveSourceBranch: boolean;
}

/** Columns the service may change through update(); never taken from a request. */
export type MergeRequestFields = Partial<
  Pick<
    MergeRequest,
    | 'title'
    | 'description'
    | 'draft'
    | 'target_branch'
    | 'state'
    | 'allow_collaboration'
    | 'squash'
    | 'force_remove_source_branch'
    | 'discussion_locked'
    | 'retargeted'
    | 'merge_status'
    | 'closed_by_id'
    | 'closed_at'
    | 'merge_error'
    | 'milestone_id'
  >
>;

export function createMergeRequestsRepository(
  db: Queryable,
  /** announces each recorded event (without it, as in tests of the SQL alone, events are only written) */
  options: { events?: Pick<EventBus, 'publish'> } = {},
) {
  async function usersByMergeRequest(table: 'merge_request_assignees' | 'merge_request_reviewers', ids: number[], tx?: Queryable): Promise<Map<number, User[]>> {
    const result = new Map<number, User[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return result;
    const columns = USER_COLUMNS.split(', ').map((column) => `u.${column}`).join(', ');
    const { rows } = await on(db, tx).query<User & { merge_request_id: number }>(
      `SELECT x.merge_request_id, ${columns} FROM ${table} x JOIN users u ON u.id = x.user_id
        WHERE x.merge_request_id = ANY($1) ORDER BY x.created_at, u.id`,
      [ids],
    );
    for (const { merge_request_id: id, ...user } of rows) result.get(id)?.push(user);
    return result;
  }

  async function replaceUsers(table: 'merge_request_assignees' | 'merge_request_reviewers', mergeRequestId: number, userIds: number[], tx: Queryable): Promise<void> {
    // Kept users keep their rows (and a reviewer their review state).
    await tx.query(`DELETE FROM ${table} WHERE merge_request_id = $1 AND NOT (user_id = ANY($2::bigint[]))`, [mergeRequestId, userIds]);
    await tx.query(
      `INSERT INTO ${table} (merge_request_id, user_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`,
      [mergeRequestId, userIds],
    );
  }

  return {
    /** The next iid of a target project; the counter row's lock serialises concurrent callers. */
    async allocateIid(projectId: number, tx: Queryable): Promise<number> {
      const { rows } = await tx.query<{ last_iid: number }>(
        `INSERT INTO merge_request_iids (project_id, last_iid) VALUES ($1, 1)
         ON CONFLICT (project_id) DO UPDATE SET last_iid = merge_request_iids.last_iid + 1
         RETURNING last_iid`,
        [projectId],
      );
      return rows[0]!.last_iid;
    },
    async insert(input: NewMergeRequest, tx: Queryable): Promise<number> {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO merge_requests (iid, target_project_id, source_project_id, source_branch, target_branch, title, description, draft,
                                     author_id, allow_collaboration, squash, force_remove_source_branch)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
        [
          input.iid,
          input.targetProjectId,
          input.sourceProjectId,
          input.sourceBranch,
          input.targetBranch,
          input.title,
          input.description,
          input.draft,
          input.authorId,
          input.allowCollaboration,
          input.squash,
          input.forceRemoveSourceBranch,
        ],
      );
      return rows[0]!.id;
    },
    async findByIid(targetProjectId: number, iid: number, tx?: Queryable): Promise<MergeRequest | undefined> {
      const { rows } = await on(db, tx).query<MergeRequest>(`${SELECT} WHERE m.target_project_id = $1 AND m.iid = $2`, [targetProjectId, iid]);
      return rows[0];
    },
    async findById(id: number, tx?: Queryable): Promise<MergeRequest | undefined> {
      const { rows } = await on(db, tx).query<MergeRequest>(`${SELECT} WHERE m.id = $1`, [id]);
      return rows[0];
    },
    /** Locks the row until the transaction ends (version recording, state changes). */
    async lock(id: number, tx: Queryable): Promise<{ state: MergeRequestState; latest_diff_id: number | null; merge_error: string | null } | undefined> {
      const { rows } = await tx.query<{ state: MergeRequestState; latest_diff_id: number | null; merge_error: string | null }>('SELECT state, latest_diff_id, merge_error FROM merge_requests WHERE id = $1 FOR UPDATE', [id]);
      return rows[0];
    },
    /** The open merge request with the same projects and branches, other than `exceptId`. */
    async findOpenDuplicate(
      key: { targetProjectId: number; sourceProjectId: number; sourceBranch: string; targetBranch: string },
      exceptId: number | null,
      tx?: Queryable,
    ): Promise<{ iid: number } | undefined> {
      const { rows } = await on(db, tx).query<{ iid: number }>(
        `SELECT iid FROM merge_requests WHERE state = 'opened' AND target_project_id = $1 AND source_project_id = $2
            AND source_branch = $3 AND target_branch = $4 AND id IS DISTINCT FROM $5::bigint ORDER BY id LIMIT 1`,
        [key.targetProjectId, key.sourceProjectId, key.sourceBranch, key.targetBranch, exceptId],
      );
      return rows[0];
    },
    async update(id: number, fields: MergeRequestFields, tx?: Queryable): Promise<void> {
      const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
      if (entries.length === 0) return;
      // Column names come from MergeRequestFields keys chosen by the service, never from a request.
      const sets = entries.map(([column], index) => `${column} = $${index + 2}`);
      await on(db, tx).query(`UPDATE merge_requests SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [id, ...entries.map(([, value]) => value)]);
    },
    /** The requests that `id` blocks (they change when it goes). */
    /** What a merge request pipeline's CI_MERGE_REQUEST_* variables name: labels (by title), milestone, assignees (usernames). */
    async ciMetadata(id: number): Promise<{ labels: string[]; milestone: string | null; assignees: string[]; versionHeads: string[] }> {
      const { rows } = await db.query<{ labels: string[]; milestone: string | null; assignees: string[]; version_heads: string[] }>(
        `SELECT coalesce((SELECT array_agg(l.title ORDER BY l.title) FROM merge_request_labels ml JOIN labels l ON l.id = ml.label_id WHERE ml.merge_request_id = m.id), '{}') AS labels,
                (SELECT ms.title FROM milestones ms WHERE ms.id = m.milestone_id) AS milestone,
                coalesce((SELECT array_agg(u.username ORDER BY a.created_at, u.id) FROM merge_request_assignees a JOIN users u ON u.id = a.user_id WHERE a.merge_request_id = m.id), '{}') AS assignees,
                coalesce((SELECT array_agg(DISTINCT d.head_commit_sha) FROM merge_request_diffs d WHERE d.merge_request_id = m.id), '{}') AS version_heads
           FROM merge_requests m WHERE m.id = $1`,
        [id],
      );
      const row = rows[0];
      return { labels: row?.labels ?? [], milestone: row?.milestone ?? null, assignees: row?.assignees ?? [], versionHeads: row?.version_heads ?? [] };
    },

    async blockedBy(id: number, tx?: Queryable): Promise<Array<{ id: number; target_project_id: number }>> {
      const { rows } = await on(db, tx).query<{ id: number; target_project_id: number }>(
        `SELECT m.id, m.target_project_id FROM merge_request_blocks b JOIN merge_requests m ON m.id = b.blocked_merge_request_id
          WHERE b.blocking_merge_request_id = $1 ORDER BY m.id`,
        [id],
      );
      return rows.map((row) => ({ id: Number(row.id), target_project_id: Number(row.target_project_id) }));
    },
    /** Deletes the merge request; its versions, notes, events and dependencies go with it (ON DELETE CASCADE). */
    remove: async (id: number, tx?: Queryable) => void (await on(db, tx).query('DELETE FROM merge_requests WHERE id = $1', [id])),
    touch: async (id: number, tx?: Queryable) => void (await on(db, tx).query('UPDATE merge_requests SET updated_at = now() WHERE id = $1', [id])),
    setAssignees: (mergeRequestId: number, userIds: number[], tx: Queryable) => replaceUsers('merge_request_assignees', mergeRequestId, userIds, tx),
    setReviewers: (mergeRequestId: number, userIds: number[], tx: Queryable) => replaceUsers('merge_request_reviewers', mergeRequestId, userIds, tx),
    assignees: (ids: number[], tx?: Queryable) => usersByMergeRequest('merge_request_assignees', ids, tx),
    reviewers: (ids: number[], tx?: Queryable) => usersByMergeRequest('merge_request_reviewers', ids, tx),
    usersByIds: (ids: number[]): Promise<Map<number, User>> => usersByIds(db, ids),
    async list(filter: MergeRequestListFilter, viewer: Viewer, page: { limit: number; offset: number }): Promise<{ mergeRequests: MergeRequest[]; total: number }> {
      const query = buildListQuery(filter, viewer);
      const [rows, count] = await Promise.all([
        db.query<MergeRequest>(`${SELECT} WHERE ${query.where} ORDER BY ${query.order} LIMIT ${page.limit} OFFSET ${page.offset}`, query.params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count ${FROM} WHERE ${query.where}`, query.params),
      ]);
      return { mergeRequests: rows.rows, total: count.rows[0]!.count };
    },
    /** Open merge requests whose source is this branch (pushes to it record versions). */
    async openWithSource(sourceProjectId: number, branch: string): Promise<MergeRequest[]> {
      const { rows } = await db.query<MergeRequest>(`${SELECT} WHERE m.source_project_id = $1 AND m.source_branch = $2 AND m.state = 'opened' ORDER BY m.id`, [sourceProjectId, branch]);
      return rows;
    },
    /**
     * The open merge requests whose pipeline this may be: its own merge request (a merge request
     * pipeline), or those from its branch (a branch pipeline). In the caller's transaction.
     */
    async openForPipeline(pipeline: { merge_request_id: number | null; project_id: number; ref: string; tag: boolean }, tx?: Queryable): Promise<{ id: number; target_project_id: number }[]> {
      const { rows } = await on(db, tx).query<{ id: number; target_project_id: number }>(
        `SELECT id, target_project_id FROM merge_requests
          WHERE state IN ('opened', 'locked') AND (id = $1 OR (NOT $4::boolean AND source_project_id = $2 AND source_branch = $3))`,
        [pipeline.merge_request_id, pipeline.project_id, pipeline.ref, pipeline.tag],
      );
      return rows.map((row) => ({ id: Number(row.id), target_project_id: Number(row.target_project_id) }));
    },
    /**
     * The merged merge requests whose post-merge pipeline this may be: a branch pipeline of their
     * target branch at the commit they landed as (the merge commit, else the squash commit, else
     * — a fast-forward — the head of their latest version). In the caller's transaction.
     */
    async mergedAtPipeline(pipeline: { merge_request_id: number | null; project_id: number; ref: string; tag: boolean; sha: string }, tx?: Queryable): Promise<{ id: number; target_project_id: number }[]> {
      if (pipeline.tag || pipeline.merge_request_id !== null) return [];
      const { rows } = await on(db, tx).query<{ id: number; target_project_id: number }>(
        `SELECT m.id, m.target_project_id FROM merge_requests m
          WHERE m.state = 'merged' AND m.target_project_id = $1 AND m.target_branch = $2 AND (m.merge_commit_sha = $3 OR (m.merge_commit_sha IS NULL AND m.squash_commit_sha = $3))
         UNION
         SELECT m.id, m.target_project_id FROM merge_request_diffs d JOIN merge_requests m ON m.latest_diff_id = d.id
          WHERE d.head_commit_sha = $3 AND m.state = 'merged' AND m.target_project_id = $1 AND m.target_branch = $2 AND m.merge_commit_sha IS NULL AND m.squash_commit_sha IS NULL`,
        [pipeline.project_id, pipeline.ref, pipeline.sha],
      );
      return rows.map((row) => ({ id: Number(row.id), target_project_id: Number(row.target_project_id) }));
    },
    /** Open merge requests into this branch (pushes to it invalidate mergeability). */
    async openWithTarget(targetProjectId: number, branch: string): Promise<MergeRequest[]> {
      const { rows } = await db.query<MergeRequest>(`${SELECT} WHERE m.target_project_id = $1 AND m.target_branch = $2 AND m.state = 'opened' ORDER BY m.id`, [targetProjectId, branch]);
      return rows;
    },
    /**
     * Writes one event and announces `merge_request.event_recorded` in the same transaction,
     * so its reactions (the notes domain writes the system note) commit or roll back with it.
     */
    async recordEvent(mergeRequestId: number, userId: number | null, action: MergeRequestEventAction, values: { from?: string | null; to?: string | null } = {}, tx?: Queryable): Promise<number> {
      const { rows } = await on(db, tx).query<{ id: number }>('INSERT INTO merge_request_events (merge_request_id, user_id, action, from_value, to_value) VALUES ($1, $2, $3, $4, $5) RETURNING id', [
        mergeRequestId,
        userId,
        action,
        values.from ?? null,
        values.to ?? null,
      ]);
      const eventId = Number(rows[0]!.id);
      await options.events?.publish('merge_request.event_recorded', { mergeRequestId, eventId }, tx);
      return eventId;
    },
    async events(mergeRequestId: number): Promise<Array<{ action: MergeRequestEventAction; user_id: number | null; from_value: string | null; to_value: string | null; created_at: Date }>> {
      const { rows } = await db.query<{ action: MergeRequestEventAction; user_id: number | null; from_value: string | null; to_value: string | null; created_at: Date }>(
        'SELECT action, user_id, from_value, to_value, created_at FROM merge_request_events WHERE merge_request_id = $1 ORDER BY id',
        [mergeRequestId],
      );
      return rows;
    },
    /** Has the author had a merge request merged into the project before? (first_contribution) */
    async authorHasMerged(authorId: number, targetProjectId: number): Promise<boolean> {
      const { rowCount } = await db.query(`SELECT 1 FROM merge_requests WHERE author_id = $1 AND target_project_id = $2 AND state = 'merged' LIMIT 1`, [authorId, targetProjectId]);
      return rowCount > 0;
    },
    /** True for the first caller per domain event: every process hears each event once. */
  };
}

export type MergeRequestsRepository = ReturnType<typeof createMergeRequestsRepository>;
