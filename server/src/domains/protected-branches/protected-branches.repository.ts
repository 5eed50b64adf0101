import { AccessLevel } from '@tributary/contracts';
import { on, type Queryable } from '../../platform/db/database.js';
import type { AccessKind, AccessLevelRule, ProtectedBranch } from './protected-branch.js';

export interface AccessGrant {
  kind: AccessKind;
  access_level?: number | null;
  user_id?: number | null;
  group_id?: number | null;
}

export function createProtectedBranchesRepository(db: Queryable) {
  async function load(where: string, params: unknown[], tx?: Queryable): Promise<ProtectedBranch[]> {
    const q = on(db, tx);
    const { rows } = await q.query<Omit<ProtectedBranch, 'rules'>>(
      `SELECT id, project_id, name, allow_force_push, code_owner_approval_required FROM protected_branches WHERE ${where} ORDER BY name`,
      params,
    );
    if (rows.length === 0) return [];
    const rules = await q.query<AccessLevelRule & { protected_branch_id: number }>(
      `SELECT id, protected_branch_id, kind, access_level, user_id, group_id FROM protected_branch_access_levels
        WHERE protected_branch_id = ANY($1) ORDER BY id`,
      [rows.map((row) => row.id)],
    );
    return rows.map((row) => ({
      ...row,
      rules: rules.rows.filter((rule) => rule.protected_branch_id === row.id).map(({ protected_branch_id: _, ...rule }) => rule),
    }));
  }

  async function insertGrants(protectedBranchId: number, grants: AccessGrant[], tx: Queryable): Promise<void> {
    for (const grant of grants) {
      await tx.query(
        'INSERT INTO protected_branch_access_levels (protected_branch_id, kind, access_level, user_id, group_id) VALUES ($1, $2, $3, $4, $5)',
        [protectedBranchId, grant.kind, grant.access_level ?? null, grant.user_id ?? null, grant.group_id ?? null],
      );
    }
  }

  async function insertProtection(
    projectId: number,
    input: { name: string; allowForcePush: boolean; codeOwnerApprovalRequired: boolean; grants: AccessGrant[] },
    tx: Queryable,
  ): Promise<number> {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO protected_branches (project_id, name, allow_force_push, code_owner_approval_required) VALUES ($1, $2, $3, $4) RETURNING id`,
      [projectId, input.name, input.allowForcePush, input.codeOwnerApprovalRequired],
    );
    await insertGrants(rows[0]!.id, input.grants, tx);
    return rows[0]!.id;
  }

  return {
    listForProject: (projectId: number, tx?: Queryable) => load('project_id = $1', [projectId], tx),
    async findByName(projectId: number, name: string, tx?: Queryable): Promise<ProtectedBranch | undefined> {
      return (await load('project_id = $1 AND name = $2', [projectId, name], tx))[0];
    },
    insert: insertProtection,
    async update(id: number, input: { allowForcePush?: boolean; codeOwnerApprovalRequired?: boolean }, tx: Queryable): Promise<void> {
      await tx.query(
        `UPDATE protected_branches SET allow_force_push = COALESCE($2, allow_force_push),
                code_owner_approval_required = COALESCE($3, code_owner_approval_required) WHERE id = $1`,
        [id, input.allowForcePush ?? null, input.codeOwnerApprovalRequired ?? null],
      );
    },
    insertGrants,
    async deleteGrants(protectedBranchId: number, ids: number[], tx: Queryable): Promise<void> {
      await tx.query('DELETE FROM protected_branch_access_levels WHERE protected_branch_id = $1 AND id = ANY($2)', [protectedBranchId, ids]);
    },
    async replaceRoleGrant(protectedBranchId: number, kind: AccessKind, accessLevel: number, tx: Queryable): Promise<void> {
      await tx.query('DELETE FROM protected_branch_access_levels WHERE protected_branch_id = $1 AND kind = $2 AND access_level IS NOT NULL', [protectedBranchId, kind]);
      await insertGrants(protectedBranchId, [{ kind, access_level: accessLevel }], tx);
    },
    async remove(projectId: number, name: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM protected_branches WHERE project_id = $1 AND name = $2', [projectId, name]);
      return rowCount > 0;
    },
    /** GitLab's default protection for a new project's default branch. */
    async protectDefault(projectId: number, branch: string, tx: Queryable): Promise<void> {
      await insertProtection(
        projectId,
        {
          name: branch,
          allowForcePush: false,
          codeOwnerApprovalRequired: false,
          grants: [
            { kind: 'push', access_level: AccessLevel.Maintainer },
            { kind: 'merge', access_level: AccessLevel.Maintainer },
            { kind: 'unprotect', access_level: AccessLevel.Maintainer },
          ],
        },
        tx,
      );
    },
  };
}

export type ProtectedBranchesRepository = ReturnType<typeof createProtectedBranchesRepository>;
