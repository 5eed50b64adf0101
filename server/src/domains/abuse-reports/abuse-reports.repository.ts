/** SQL of abuse reports. */
import { isUniqueViolation, type Queryable } from '../../platform/db/database.js';
import type { AbuseCategory } from './abuse-report-rules.js';

export type AbuseReportStatus = 'open' | 'closed';

export interface AbuseReport {
  id: number;
  user_id: number;
  reporter_id: number;
  category: AbuseCategory;
  comment: string;
  reported_from_url: string;
  status: AbuseReportStatus;
  resolved_at: Date | null;
  resolved_by_id: number | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, user_id, reporter_id, category, comment, reported_from_url, status, resolved_at, resolved_by_id, created_at, updated_at';

export function createAbuseReportsRepository(db: Queryable) {
  return {
    /** The new report, or null when this reporter already has an open report of this user in this category. */
    async insert(input: { userId: number; reporterId: number; category: AbuseCategory; comment: string; reportedFromUrl: string }): Promise<AbuseReport | null> {
      try {
        const { rows } = await db.query<AbuseReport>(
          `INSERT INTO abuse_reports (user_id, reporter_id, category, comment, reported_from_url) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
          [input.userId, input.reporterId, input.category, input.comment, input.reportedFromUrl],
        );
        return rows[0]!;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },
    async list(filter: { status?: AbuseReportStatus; category?: AbuseCategory }, page: { limit: number; offset: number }): Promise<{ reports: AbuseReport[]; total: number }> {
      const where = 'WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR category = $2)';
      const params = [filter.status ?? null, filter.category ?? null];
      const [rows, count] = await Promise.all([
        db.query<AbuseReport>(`SELECT ${COLUMNS} FROM abuse_reports ${where} ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM abuse_reports ${where}`, params),
      ]);
      return { reports: rows.rows, total: count.rows[0]!.count };
    },
    async find(id: number): Promise<AbuseReport | undefined> {
      const { rows } = await db.query<AbuseReport>(`SELECT ${COLUMNS} FROM abuse_reports WHERE id = $1`, [id]);
      return rows[0];
    },
    /** Closing records who and when; reopening clears it. null: reopening would duplicate an open report. */
    async setStatus(id: number, status: AbuseReportStatus, byUserId: number): Promise<AbuseReport | null> {
      try {
        const { rows } = await db.query<AbuseReport>(
          `UPDATE abuse_reports SET status = $2,
             resolved_at = CASE WHEN $2 = 'closed' THEN now() ELSE NULL END,
             resolved_by_id = CASE WHEN $2 = 'closed' THEN $3::bigint ELSE NULL END,
             updated_at = now()
           WHERE id = $1 RETURNING ${COLUMNS}`,
          [id, status, byUserId],
        );
        return rows[0] ?? null;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },
    async remove(id: number): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM abuse_reports WHERE id = $1', [id]);
      return rowCount > 0;
    },
  };
}

export type AbuseReportsRepository = ReturnType<typeof createAbuseReportsRepository>;
