import { on, type Queryable } from '../../platform/db/database.js';
import type { CiVariable, VariableOwner } from './ci-variable.js';
import type { VariableFields } from './variable-rules.js';

const COLUMNS = 'id, project_id, group_id, key, value, variable_type, protected, masked, hidden, raw, environment_scope, description';

/** The WHERE clause and its first parameter that select one owner's variables. */
function ownedBy(owner: VariableOwner): { where: string; params: unknown[] } {
  if (owner.kind === 'project') return { where: 'project_id = $1', params: [owner.id] };
  if (owner.kind === 'group') return { where: 'group_id = $1', params: [owner.id] };
  return { where: 'project_id IS NULL AND group_id IS NULL', params: [] };
}

const normalize = (row: CiVariable): CiVariable => ({
  ...row,
  id: Number(row.id),
  project_id: row.project_id === null ? null : Number(row.project_id),
  group_id: row.group_id === null ? null : Number(row.group_id),
});

export function createCiVariablesRepository(db: Queryable) {
  return {
    /** One owner's variables by key, then scope (GitLab lists them in id order; key order reads better and pages stably). */
    async list(owner: VariableOwner, tx?: Queryable): Promise<CiVariable[]> {
      const { where, params } = ownedBy(owner);
      const { rows } = await on(db, tx).query<CiVariable>(`SELECT ${COLUMNS} FROM ci_variables WHERE ${where} ORDER BY key, environment_scope, id`, params);
      return rows.map(normalize);
    },

    /** The variables with this key, in one environment scope when `environmentScope` is given. */
    async findByKey(owner: VariableOwner, key: string, environmentScope?: string, tx?: Queryable): Promise<CiVariable[]> {
      const { where, params } = ownedBy(owner);
      const conditions = [where, `key = $${params.length + 1}`];
      const values = [...params, key];
      if (environmentScope !== undefined) {
        values.push(environmentScope);
        conditions.push(`environment_scope = $${values.length}`);
      }
      const { rows } = await on(db, tx).query<CiVariable>(`SELECT ${COLUMNS} FROM ci_variables WHERE ${conditions.join(' AND ')} ORDER BY id`, values);
      return rows.map(normalize);
    },

    /** Variables of several groups at once (a project's ancestry), for the pipelines engine. */
    async listForGroups(groupIds: readonly number[], tx?: Queryable): Promise<CiVariable[]> {
      if (groupIds.length === 0) return [];
      const { rows } = await on(db, tx).query<CiVariable>(`SELECT ${COLUMNS} FROM ci_variables WHERE group_id = ANY($1) ORDER BY id`, [groupIds]);
      return rows.map(normalize);
    },

    async insert(owner: VariableOwner, fields: VariableFields, tx?: Queryable): Promise<CiVariable> {
      const { rows } = await on(db, tx).query<CiVariable>(
        `INSERT INTO ci_variables (project_id, group_id, key, value, variable_type, protected, masked, hidden, raw, environment_scope, description)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
        [
          owner.kind === 'project' ? owner.id : null,
          owner.kind === 'group' ? owner.id : null,
          fields.key,
          fields.value,
          fields.variable_type,
          fields.protected,
          fields.masked,
          fields.hidden,
          fields.raw,
          fields.environment_scope,
          fields.description,
        ],
      );
      return normalize(rows[0]!);
    },

    async update(id: number, fields: VariableFields, tx?: Queryable): Promise<CiVariable | undefined> {
      const { rows } = await on(db, tx).query<CiVariable>(
        `UPDATE ci_variables SET key = $2, value = $3, variable_type = $4, protected = $5, masked = $6, hidden = $7, raw = $8,
                environment_scope = $9, description = $10, updated_at = now()
          WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, fields.key, fields.value, fields.variable_type, fields.protected, fields.masked, fields.hidden, fields.raw, fields.environment_scope, fields.description],
      );
      return rows[0] ? normalize(rows[0]) : undefined;
    },

    async remove(id: number, tx?: Queryable): Promise<boolean> {
      const { rowCount } = await on(db, tx).query('DELETE FROM ci_variables WHERE id = $1', [id]);
      return rowCount > 0;
    },
  };
}

export type CiVariablesRepository = ReturnType<typeof createCiVariablesRepository>;
