import { on, type Queryable } from '../../platform/db/database.js';
import type { PipelineScheduleRow, ScheduleVariable } from './pipeline-schedule.js';

export interface ScheduleFields {
  description: string;
  ref: string;
  cron: string;
  cronTimezone: string;
  active: boolean;
  nextRunAt: Date | null;
}

/** All SQL of pipeline schedules. */
export function createPipelineSchedulesRepository(db: Queryable) {
  return {
    async list(projectId: number, filter: { active?: boolean; limit: number; offset: number }): Promise<{ schedules: PipelineScheduleRow[]; total: number }> {
      const where = `project_id = $1 AND ($2::boolean IS NULL OR active = $2)`;
      const params = [projectId, filter.active ?? null];
      const [page, count] = await Promise.all([
        db.query<PipelineScheduleRow>(`SELECT * FROM ci_pipeline_schedules WHERE ${where} ORDER BY id LIMIT ${filter.limit} OFFSET ${filter.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ci_pipeline_schedules WHERE ${where}`, params),
      ]);
      return { schedules: page.rows, total: count.rows[0]!.count };
    },

    async find(projectId: number, id: number, tx?: Queryable): Promise<PipelineScheduleRow | null> {
      const { rows } = await on(db, tx).query<PipelineScheduleRow>('SELECT * FROM ci_pipeline_schedules WHERE project_id = $1 AND id = $2', [projectId, id]);
      return rows[0] ?? null;
    },

    async findById(id: number): Promise<PipelineScheduleRow | null> {
      const { rows } = await db.query<PipelineScheduleRow>('SELECT * FROM ci_pipeline_schedules WHERE id = $1', [id]);
      return rows[0] ?? null;
    },

    async insert(projectId: number, ownerId: number, fields: ScheduleFields, tx?: Queryable): Promise<PipelineScheduleRow> {
      const { rows } = await on(db, tx).query<PipelineScheduleRow>(
        `INSERT INTO ci_pipeline_schedules (project_id, owner_id, description, ref, cron, cron_timezone, active, next_run_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [projectId, ownerId, fields.description, fields.ref, fields.cron, fields.cronTimezone, fields.active, fields.nextRunAt],
      );
      return rows[0]!;
    },

    async update(id: number, fields: ScheduleFields, tx?: Queryable): Promise<PipelineScheduleRow> {
      const { rows } = await on(db, tx).query<PipelineScheduleRow>(
        `UPDATE ci_pipeline_schedules SET description = $2, ref = $3, cron = $4, cron_timezone = $5, active = $6, next_run_at = $7, updated_at = now()
          WHERE id = $1 RETURNING *`,
        [id, fields.description, fields.ref, fields.cron, fields.cronTimezone, fields.active, fields.nextRunAt],
      );
      return rows[0]!;
    },

    async setOwner(id: number, ownerId: number): Promise<PipelineScheduleRow> {
      const { rows } = await db.query<PipelineScheduleRow>('UPDATE ci_pipeline_schedules SET owner_id = $2, updated_at = now() WHERE id = $1 RETURNING *', [id, ownerId]);
      return rows[0]!;
    },

    async remove(id: number): Promise<void> {
      await db.query('DELETE FROM ci_pipeline_schedules WHERE id = $1', [id]);
    },

    /** Is any active schedule due? A plain read, so that an idle sweep opens no transaction. */
    async anyDue(): Promise<boolean> {
      const { rowCount } = await db.query('SELECT 1 FROM ci_pipeline_schedules WHERE active AND next_run_at <= now() LIMIT 1');
      return rowCount > 0;
    },

    /**
     * Active schedules that are due, locked for the caller's transaction; rows another runner holds
     * are skipped (it is running them), so each due run is claimed by one runner.
     */
    async claimDue(tx: Queryable, limit: number): Promise<PipelineScheduleRow[]> {
      const { rows } = await tx.query<PipelineScheduleRow>(
        `SELECT * FROM ci_pipeline_schedules WHERE active AND next_run_at <= now() ORDER BY next_run_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit],
      );
      return rows;
    },

    async setNextRunAt(id: number, nextRunAt: Date | null, tx: Queryable): Promise<void> {
      await tx.query('UPDATE ci_pipeline_schedules SET next_run_at = $2 WHERE id = $1', [id, nextRunAt]);
    },

    async recordSkip(id: number, reason: string | null): Promise<void> {
      await db.query(`UPDATE ci_pipeline_schedules SET last_skip_reason = $2, last_skipped_at = CASE WHEN $2::text IS NULL THEN last_skipped_at ELSE now() END WHERE id = $1`, [id, reason]);
    },

    /** The newest pipeline each schedule created. */
    async lastPipelineIds(scheduleIds: readonly number[]): Promise<Map<number, number>> {
      if (scheduleIds.length === 0) return new Map();
      const { rows } = await db.query<{ schedule_id: number; pipeline_id: number }>(
        `SELECT pipeline_schedule_id AS schedule_id, max(id) AS pipeline_id FROM ci_pipelines WHERE pipeline_schedule_id = ANY($1::bigint[]) GROUP BY pipeline_schedule_id`,
        [scheduleIds],
      );
      return new Map(rows.map((row) => [Number(row.schedule_id), Number(row.pipeline_id)]));
    },

    async variables(scheduleId: number): Promise<ScheduleVariable[]> {
      const { rows } = await db.query<ScheduleVariable>('SELECT key, value, variable_type FROM ci_pipeline_schedule_variables WHERE pipeline_schedule_id = $1 ORDER BY id', [scheduleId]);
      return rows;
    },

    /** The new variable, or null when the key is taken. */
    async insertVariable(scheduleId: number, variable: ScheduleVariable): Promise<ScheduleVariable | null> {
      const { rows } = await db.query<ScheduleVariable>(
        `INSERT INTO ci_pipeline_schedule_variables (pipeline_schedule_id, key, value, variable_type) VALUES ($1, $2, $3, $4)
         ON CONFLICT (pipeline_schedule_id, key) DO NOTHING RETURNING key, value, variable_type`,
        [scheduleId, variable.key, variable.value, variable.variable_type],
      );
      return rows[0] ?? null;
    },

    async updateVariable(scheduleId: number, key: string, changes: { value?: string; variable_type?: string }): Promise<ScheduleVariable | null> {
      const { rows } = await db.query<ScheduleVariable>(
        `UPDATE ci_pipeline_schedule_variables SET value = coalesce($3, value), variable_type = coalesce($4, variable_type), updated_at = now()
          WHERE pipeline_schedule_id = $1 AND key = $2 RETURNING key, value, variable_type`,
        [scheduleId, key, changes.value ?? null, changes.variable_type ?? null],
      );
      return rows[0] ?? null;
    },

    async deleteVariable(scheduleId: number, key: string): Promise<ScheduleVariable | null> {
      const { rows } = await db.query<ScheduleVariable>('DELETE FROM ci_pipeline_schedule_variables WHERE pipeline_schedule_id = $1 AND key = $2 RETURNING key, value, variable_type', [scheduleId, key]);
      return rows[0] ?? null;
    },
  };
}

export type PipelineSchedulesRepository = ReturnType<typeof createPipelineSchedulesRepository>;
