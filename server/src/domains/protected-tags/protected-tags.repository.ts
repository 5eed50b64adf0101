import { on, type Queryable } from '../../platform/db/database.js';
import type { CreateAccessRule, ProtectedTag } from './protected-tag.js';

export interface CreateGrant {
  access_level?: number | null;
  user_id?: number | null;
  group_id?: number | null;
}

export function createProtectedTagsRepository(db: Queryable) {
  async function load(where: string, params: unknown[], tx?: Queryable): Promise<ProtectedTag[]> {
    const q = on(db, tx);
    const { rows } = await q.query<Omit<ProtectedTag, 'rules'>>(`SELECT id, project_id, name FROM protected_tags WHERE ${where} ORDER BY name`, params);
    if (rows.length === 0) return [];
    const rules = await q.query<Omit<CreateAccessRule, 'kind'> & { protected_tag_id: number }>(
      `SELECT id, protected_tag_id, access_level, user_id, group_id FROM protected_tag_create_access_levels
        WHERE protected_tag_id = ANY($1) ORDER BY id`,
      [rows.map((row) => row.id)],
    );
    return rows.map((row) => ({
      ...row,
      rules: rules.rows
        .filter((rule) => Number(rule.protected_tag_id) === Number(row.id))
        .map(({ protected_tag_id: _, ...rule }) => ({ ...rule, kind: 'create' as const })),
    }));
  }

  return {
    listForProject: (projectId: number, tx?: Queryable) => load('project_id = $1', [projectId], tx),
    async findByName(projectId: number, name: string, tx?: Queryable): Promise<ProtectedTag | undefined> {
      return (await load('project_id = $1 AND name = $2', [projectId, name], tx))[0];
    },
    async insert(projectId: number, name: string, grants: CreateGrant[], tx: Queryable): Promise<number> {
      const { rows } = await tx.query<{ id: number }>('INSERT INTO protected_tags (project_id, name) VALUES ($1, $2) RETURNING id', [projectId, name]);
      const id = rows[0]!.id;
      for (const grant of grants) {
        await tx.query('INSERT INTO protected_tag_create_access_levels (protected_tag_id, access_level, user_id, group_id) VALUES ($1, $2, $3, $4)', [
          id,
          grant.access_level ?? null,
          grant.user_id ?? null,
          grant.group_id ?? null,
        ]);
      }
      return id;
    },
    async remove(projectId: number, name: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM protected_tags WHERE project_id = $1 AND name = $2', [projectId, name]);
      return rowCount > 0;
    },
  };
}

export type ProtectedTagsRepository = ReturnType<typeof createProtectedTagsRepository>;
