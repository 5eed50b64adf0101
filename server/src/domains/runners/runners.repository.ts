import type { Queryable } from '../../platform/db/database.js';
import { on } from '../../platform/db/database.js';
import { groupMemberAtLeastSql, projectMemberAtLeastSql } from '../../auth/readable-sql.js';
import { ONLINE_CONTACT_TIMEOUT_MS, STALE_TIMEOUT_MS } from './runner-rules.js';
import { executorType, type RunnerSettings, type RunnerStatusFilter } from './runner-rules.js';
import type { Runner, RunnerInfo, RunnerManager, RunnerRegistrationType, RunnerType } from './runner.js';

const COLUMNS = `r.id, r.runner_type, r.group_id,
  to_json(COALESCE((SELECT array_agg(rp.project_id ORDER BY rp.id) FROM ci_runner_projects rp WHERE rp.runner_id = r.id), '{}'::bigint[])) AS project_ids,
  r.description, r.paused, r.locked, r.run_untagged, r.tag_list, r.access_level, r.maximum_timeout, r.maintenance_note,
  r.token_short, r.token_expires_at, r.created_by_id, r.created_at, r.contacted_at,
  r.version, r.revision, r.platform, r.architecture, r.ip_address, r.creation_state, r.registration_type`;

const MANAGER_COLUMNS = 'm.id, m.runner_id, m.system_xid, m.contacted_at, m.version, m.revision, m.platform, m.architecture, m.ip_address, m.executor_type, m.created_at';

/** Which runners a list shows (the ownership part of GitLab's runner finders). */
export type RunnerListScope =
  | { kind: 'all' }
  /** GitLab's User#ci_owned_runners: project runners of projects the user maintains, group runners of groups they own */
  | { kind: 'owned'; userId: number; maintainer: number; owner: number }
  /** GitLab's owned_or_instance_wide: the project's own runners, its groups' runners, instance runners */
  | { kind: 'project'; projectId: number; groupIds: number[] }
  /** GitLab's group_or_instance_wide: the group's and its ancestors' runners, instance runners */
  | { kind: 'group'; groupIds: number[] };

export interface RunnerListFilter {
  scope: RunnerListScope;
  types?: RunnerType[];
  statuses?: RunnerStatusFilter[];
  paused?: boolean;
  tags?: string[];
  limit: number;
  offset: number;
}

const SETTING_COLUMNS = ['description', 'paused', 'locked', 'run_untagged', 'tag_list', 'access_level', 'maximum_timeout', 'maintenance_note'] as const;

export function createRunnersRepository(db: Queryable) {
  async function findWhere(condition: string, params: unknown[], tx?: Queryable): Promise<Runner | undefined> {
    const { rows } = await on(db, tx).query<Runner>(`SELECT ${COLUMNS} FROM ci_runners r WHERE ${condition}`, params);
    return rows[0];
  }

  return {
    async insert(
      input: {
        runnerType: RunnerType;
        groupId: number | null;
        projectId: number | null;
        settings: RunnerSettings;
        tokenDigest: string;
        tokenShort: string;
        tokenExpiresAt: Date | null;
        createdById: number | null;
        registrationType?: RunnerRegistrationType;
      },
      tx?: Queryable,
    ): Promise<number> {
      const s = input.settings;
      const { rows } = await on(db, tx).query<{ id: number }>(
        `INSERT INTO ci_runners (runner_type, group_id, description, paused, locked, run_untagged, tag_list, access_level, maximum_timeout, maintenance_note, token_digest, token_short, created_by_id, token_expires_at, registration_type)
         VALUES ($1, $2, $3, coalesce($4, false), coalesce($5, false), coalesce($6, true), coalesce($7, '{}'::text[]), coalesce($8, 'not_protected'), $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
        [
          input.runnerType, input.groupId, s.description ?? null, s.paused ?? null, s.locked ?? null, s.run_untagged ?? null, s.tag_list ?? null, s.access_level ?? null,
          s.maximum_timeout ?? null, s.maintenance_note ?? null, input.tokenDigest, input.tokenShort, input.createdById, input.tokenExpiresAt, input.registrationType ?? 'authenticated_user',
        ],
      );
      const id = rows[0]!.id;
      if (input.projectId !== null) await on(db, tx).query('INSERT INTO ci_runner_projects (runner_id, project_id) VALUES ($1, $2)', [id, input.projectId]);
      return id;
    },
    findById(id: number, tx?: Queryable): Promise<Runner | undefined> {
      return findWhere('r.id = $1', [id], tx);
    },
    /** The runner whose token has this digest, with the digest (for the constant-time check) and whether it has expired. */
    async findByTokenDigest(digest: string): Promise<(Runner & { token_digest: string; token_expired: boolean }) | undefined> {
      const { rows } = await db.query<Runner & { token_digest: string; token_expired: boolean }>(
        `SELECT ${COLUMNS}, r.token_digest, (r.token_expires_at IS NOT NULL AND r.token_expires_at <= now()) AS token_expired FROM ci_runners r WHERE r.token_digest = $1`,
        [digest],
        { name: 'runners.find_by_token_digest' },
      );
      return rows[0];
    },
    async update(id: number, settings: RunnerSettings, tx?: Queryable): Promise<void> {
      const params: unknown[] = [id];
      const sets: string[] = [];
      for (const column of SETTING_COLUMNS) {
        if (settings[column] === undefined) continue;
        params.push(settings[column]);
        sets.push(`${column} = $${params.length}`);
      }
      if (sets.length === 0) return;
      await on(db, tx).query(`UPDATE ci_runners SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, params);
    },
    async remove(id: number, tx?: Queryable): Promise<void> {
      await on(db, tx).query('DELETE FROM ci_runners WHERE id = $1', [id]);
    },
    /**
     * A runner's contact (GitLab's heartbeat of the runner and of its manager, in one statement):
     * the manager of `systemXid` is created or updated with when and what the machine reported,
     * and the runner's own contact and report follow it (its creation is finished).
     */
    async recordContact(id: number, contact: { systemXid: string; info?: RunnerInfo; ipAddress?: string | null }): Promise<void> {
      const info = contact.info ?? {};
      await db.query(
        `WITH manager AS (
           INSERT INTO ci_runner_machines (runner_id, system_xid, contacted_at, version, revision, platform, architecture, ip_address, executor_type)
           VALUES ($1, $2, now(), $3, $4, $5, $6, $7, $8)
           ON CONFLICT (runner_id, system_xid) DO UPDATE SET contacted_at = now(), updated_at = now(), creation_state = 'finished',
             version = coalesce(EXCLUDED.version, ci_runner_machines.version), revision = coalesce(EXCLUDED.revision, ci_runner_machines.revision),
             platform = coalesce(EXCLUDED.platform, ci_runner_machines.platform), architecture = coalesce(EXCLUDED.architecture, ci_runner_machines.architecture),
             ip_address = coalesce(EXCLUDED.ip_address, ci_runner_machines.ip_address), executor_type = coalesce(EXCLUDED.executor_type, ci_runner_machines.executor_type)
           RETURNING id)
         UPDATE ci_runners SET contacted_at = now(), creation_state = 'finished',
           version = coalesce($3, version), revision = coalesce($4, revision), platform = coalesce($5, platform),
           architecture = coalesce($6, architecture), ip_address = coalesce($7, ip_address)
         WHERE id = $1 AND EXISTS (SELECT 1 FROM manager)`,
        [id, contact.systemXid, info.version ?? null, info.revision ?? null, info.platform ?? null, info.architecture ?? null, contact.ipAddress ?? null, info.executor ? executorType(info.executor) : null],
      );
    },
    /** A runner's managers (GET /runners/:id/managers), oldest first, each `active` while a job it took is running or canceling. */
    async managers(runnerId: number): Promise<(RunnerManager & { job_execution_status: 'active' | 'idle' })[]> {
      const { rows } = await db.query<RunnerManager & { job_execution_status: 'active' | 'idle' }>(
        `SELECT ${MANAGER_COLUMNS},
           CASE WHEN EXISTS (SELECT 1 FROM ci_runner_machine_builds mb JOIN ci_builds b ON b.id = mb.build_id
                              WHERE mb.runner_machine_id = m.id AND b.status IN ('running', 'canceling')) THEN 'active' ELSE 'idle' END AS job_execution_status
         FROM ci_runner_machines m WHERE runner_id = $1 ORDER BY id`,
        [runnerId],
      );
      return rows.map((row) => ({ ...row, id: Number(row.id), runner_id: Number(row.runner_id) }));
    },
    /** Records which manager took a job (the one whose request claimed it). */
    async linkJobToManager(jobId: number, runnerId: number, systemXid: string): Promise<void> {
      await db.query(
        `INSERT INTO ci_runner_machine_builds (build_id, runner_machine_id)
         SELECT $1, id FROM ci_runner_machines WHERE runner_id = $2 AND system_xid = $3 ON CONFLICT (build_id) DO NOTHING`,
        [jobId, runnerId, systemXid],
      );
    },
    /**
     * A job's state update or log chunk is its runner's and manager's sign of life (GitLab's
     * heartbeat_runner); written at most once a minute per runner and manager.
     */
    async heartbeatForJob(jobId: number): Promise<void> {
      // PostgreSQL runs a data-modifying WITH whether or not the main statement reads it.
      await db.query(
        `WITH runner AS (
           UPDATE ci_runners SET contacted_at = now()
            WHERE id = (SELECT runner_id FROM ci_builds WHERE id = $1) AND (contacted_at IS NULL OR contacted_at < now() - interval '1 minute')
            RETURNING id)
         UPDATE ci_runner_machines SET contacted_at = now()
          WHERE id = (SELECT runner_machine_id FROM ci_runner_machine_builds WHERE build_id = $1)
            AND (contacted_at IS NULL OR contacted_at < now() - interval '1 minute')`,
        [jobId],
        { name: 'runners.heartbeat_for_job' },
      );
    },
    /** Deletes the manager of `systemXid`; false when the runner has none. */
    async removeManager(runnerId: number, systemXid: string): Promise<boolean> {
      const { rows } = await db.query<{ id: number }>('DELETE FROM ci_runner_machines WHERE runner_id = $1 AND system_xid = $2 RETURNING id', [runnerId, systemXid]);
      return rows.length > 0;
    },
    async replaceToken(id: number, tokenDigest: string, tokenShort: string, tokenExpiresAt: Date | null): Promise<void> {
      await db.query('UPDATE ci_runners SET token_digest = $2, token_short = $3, token_expires_at = $4, updated_at = now() WHERE id = $1', [id, tokenDigest, tokenShort, tokenExpiresAt]);
    },
    /** The project or group whose legacy registration token has this digest (GitLab's find_by_runners_token). */
    async findRegistrationScope(tokenDigest: string): Promise<{ kind: 'project' | 'group'; id: number; digest: string } | null> {
      const { rows } = await db.query<{ kind: 'project' | 'group'; id: number; digest: string }>(
        `SELECT 'project' AS kind, id, runners_token_digest AS digest FROM projects WHERE runners_token_digest = $1 AND NOT pending_delete
         UNION ALL SELECT 'group' AS kind, id, runners_token_digest AS digest FROM namespaces WHERE runners_token_digest = $1 AND kind = 'group'
         LIMIT 1`,
        [tokenDigest],
      );
      return rows[0] ? { ...rows[0], id: Number(rows[0].id) } : null;
    },
    async setRegistrationTokenDigest(scope: { kind: 'project' | 'group'; id: number }, tokenDigest: string): Promise<void> {
      const table = scope.kind === 'project' ? 'projects' : 'namespaces';
      await db.query(`UPDATE ${table} SET runners_token_digest = $2 WHERE id = $1`, [scope.id, tokenDigest]);
    },
    async assignProject(runnerId: number, projectId: number, tx?: Queryable): Promise<boolean> {
      const { rows } = await on(db, tx).query<{ id: number }>(
        'INSERT INTO ci_runner_projects (runner_id, project_id) VALUES ($1, $2) ON CONFLICT (runner_id, project_id) DO NOTHING RETURNING id',
        [runnerId, projectId],
      );
      return rows.length > 0;
    },
    async unassignProject(runnerId: number, projectId: number, tx?: Queryable): Promise<void> {
      await on(db, tx).query('DELETE FROM ci_runner_projects WHERE runner_id = $1 AND project_id = $2', [runnerId, projectId]);
    },
    /** One page of runners, newest first (GitLab's default order), and how many match. */
    async list(filter: RunnerListFilter): Promise<{ runners: Runner[]; total: number }> {
      const params: unknown[] = [];
      const add = (value: unknown) => {
        params.push(value);
        return `$${params.length}`;
      };
      const where: string[] = [scopeSql(filter.scope, add)];
      if (filter.types) where.push(`r.runner_type = ANY(${add(filter.types)}::text[])`);
      if (filter.paused !== undefined) where.push(`r.paused = ${add(filter.paused)}`);
      for (const status of filter.statuses ?? []) where.push(statusSql(status));
      if (filter.tags && filter.tags.length > 0) where.push(`r.tag_list @> ${add(filter.tags)}::text[]`);
      const clause = where.join(' AND ');
      const [page, count] = await Promise.all([
        db.query<Runner>(`SELECT ${COLUMNS} FROM ci_runners r WHERE ${clause} ORDER BY r.id DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ci_runners r WHERE ${clause}`, params),
      ]);
      return { runners: page.rows, total: count.rows[0]!.count };
    },
  };
}

function scopeSql(scope: RunnerListScope, add: (value: unknown) => string): string {
  switch (scope.kind) {
    case 'all':
      return 'true';
    case 'project':
      return `(r.runner_type = 'instance_type' OR r.group_id = ANY(${add(scope.groupIds)}::bigint[])
        OR EXISTS (SELECT 1 FROM ci_runner_projects rp WHERE rp.runner_id = r.id AND rp.project_id = ${add(scope.projectId)}))`;
    case 'group':
      return `(r.runner_type = 'instance_type' OR r.group_id = ANY(${add(scope.groupIds)}::bigint[]))`;
    case 'owned': {
      const refs = { user: `${add(scope.userId)}::bigint`, admin: 'false' };
      const maintainer = add(scope.maintainer);
      const owner = add(scope.owner);
      return `(EXISTS (SELECT 1 FROM ci_runner_projects rp JOIN projects p ON p.id = rp.project_id JOIN namespaces n ON n.id = p.namespace_id
                 WHERE rp.runner_id = r.id AND ${projectMemberAtLeastSql(maintainer, refs)})
        OR EXISTS (SELECT 1 FROM namespaces n WHERE n.id = r.group_id AND ${groupMemberAtLeastSql(owner, refs)}))`;
    }
  }
}

/** GitLab's status scopes (Ci::Runner / HasRunnerStatus), the same deadlines as runnerStatus(). */
function statusSql(status: RunnerStatusFilter): string {
  const online = `now() - interval '${ONLINE_CONTACT_TIMEOUT_MS / 1000} seconds'`;
  const stale = `now() - interval '${STALE_TIMEOUT_MS / 1000} seconds'`;
  switch (status) {
    case 'online':
      return `r.contacted_at > ${online}`;
    // GitLab: "Requesting offline runners might also return stale runners because stale is included in offline."
    case 'offline':
      return `r.contacted_at <= ${online}`;
    case 'never_contacted':
      return 'r.contacted_at IS NULL';
    case 'stale':
      return `(r.created_at <= ${stale} AND (r.contacted_at IS NULL OR r.contacted_at <= ${stale}))`;
    case 'active':
      return 'NOT r.paused';
    case 'paused':
      return 'r.paused';
  }
}

export type RunnersRepository = ReturnType<typeof createRunnersRepository>;
