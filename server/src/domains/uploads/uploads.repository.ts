/** SQL of uploads. An upload is always looked up by its project *and* its secret and name. */
import type { Queryable } from '../../platform/db/database.js';

export interface Upload {
  id: number;
  project_id: number;
  secret: string;
  filename: string;
  size: number;
  uploaded_by_id: number | null;
  created_at: Date;
}

const COLUMNS = 'id, project_id, secret, filename, size::int AS size, uploaded_by_id, created_at';

export function createUploadsRepository(db: Queryable) {
  return {
    async insert(input: { projectId: number; secret: string; filename: string; size: number; uploadedById: number }): Promise<Upload> {
      const { rows } = await db.query<Upload>(
        `INSERT INTO uploads (project_id, secret, filename, size, uploaded_by_id) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        [input.projectId, input.secret, input.filename, input.size, input.uploadedById],
      );
      return rows[0]!;
    },
    async find(projectId: number, secret: string, filename: string): Promise<Upload | undefined> {
      const { rows } = await db.query<Upload>(`SELECT ${COLUMNS} FROM uploads WHERE project_id = $1 AND secret = $2 AND filename = $3`, [projectId, secret, filename]);
      return rows[0];
    },
  };
}

export type UploadsRepository = ReturnType<typeof createUploadsRepository>;
