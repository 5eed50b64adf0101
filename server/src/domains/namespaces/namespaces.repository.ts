import { on, type Queryable } from '../../platform/db/database.js';
import type { Namespace } from './namespace.js';
import { namespaceReadableSql } from '../../auth/readable-sql.js';
import type { Visibility } from '@tributary/contracts';
import { AccessLevel } from '@tributary/contracts';

const SELECT = `SELECT n.id, n.kind, n.name, n.path, r.path AS full_path, r.name AS full_name, n.parent_id, n.owner_id,
       n.visibility, n.description, to_json(n.traversal_ids) AS traversal_ids, n.created_at
  FROM namespaces n JOIN routes r ON r.source_type = 'namespace' AND r.source_id = n.id`;

/** SQL condition: may user $N read namespace `n`? The one rule, auth/readable-sql.ts. */
export function namespaceVisibleSql(userParam: string, adminParam: string): string {
  return namespaceReadableSql({ user: `${userParam}::bigint`, admin: adminParam });
}

export interface NewNamespace {
  kind: 'user' | 'group';
  name: string;
  path: string;
  parent: Namespace | null;
  ownerId: number | null;
  visibility: Namespace['visibility'];
  description: string;
}

export interface GroupListFilter {
  userId: number | null;
  isAdmin: boolean;
  search?: string;
  parentId?: number | null;
  /** only groups the user is a direct or inherited member of */
  membership?: boolean;
  minAccessLevel?: number;
  kind?: 'group' | 'user';
  /** only these groups (a project's ancestors) */
  ids?: number[];
  /** GitLab's `skip_groups` */
  skipIds?: number[];
  /** only groups below this one, at any depth (GitLab's descendant_groups) */
  descendantOf?: number;
  limit: number;
  offset: number;
}

export function createNamespacesRepository(db: Queryable) {
  return {
    async insert(input: NewNamespace, tx: Queryable): Promise<Namespace> {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO namespaces (kind, name, path, parent_id, owner_id, visibility, description)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [input.kind, input.name, input.path, input.parent?.id ?? null, input.ownerId, input.visibility, input.description],
      );
      const id = rows[0]!.id;
      const traversal = [...(input.parent?.traversal_ids ?? []), id];
      await tx.query('UPDATE namespaces SET traversal_ids = $2 WHERE id = $1', [id, traversal]);
      const fullPath = input.parent ? `${input.parent.full_path}/${input.path}` : input.path;
      const fullName = input.parent ? `${input.parent.full_name} / ${input.name}` : input.name;
      await tx.query(`INSERT INTO routes (source_type, source_id, path, name) VALUES ('namespace', $1, $2, $3)`, [id, fullPath, fullName]);
      return (await this.findById(id, tx))!;
    },
    async findById(id: number, tx?: Queryable): Promise<Namespace | undefined> {
      const { rows } = await on(db, tx).query<Namespace>(`${SELECT} WHERE n.id = $1`, [id]);
      return rows[0];
    },
    async findByFullPath(fullPath: string, tx?: Queryable): Promise<Namespace | undefined> {
      const { rows } = await on(db, tx).query<Namespace>(`${SELECT} WHERE lower(r.path) = lower($1)`, [fullPath]);
      return rows[0];
    },
    async findUserNamespace(userId: number, tx?: Queryable): Promise<Namespace | undefined> {
      const { rows } = await on(db, tx).query<Namespace>(`${SELECT} WHERE n.kind = 'user' AND n.owner_id = $1`, [userId]);
      return rows[0];
    },
    async routeTaken(fullPath: string, tx?: Queryable): Promise<boolean> {
      const { rowCount } = await on(db, tx).query('SELECT 1 FROM routes WHERE lower(path) = lower($1)', [fullPath]);
      return rowCount > 0;
    },
    async list(filter: GroupListFilter): Promise<{ namespaces: Namespace[]; total: number }> {
      const params: unknown[] = [filter.userId, filter.isAdmin];
      const where = [namespaceVisibleSql('$1', '$2'), `n.kind = '${filter.kind ?? 'group'}'`];
      if (filter.search) {
        params.push(`%${filter.search.toLowerCase()}%`);
        where.push(`(lower(n.name) LIKE $${params.length} OR lower(r.path) LIKE $${params.length})`);
      }
      if (filter.parentId !== undefined) {
        if (filter.parentId === null) where.push('n.parent_id IS NULL');
        else {
          params.push(filter.parentId);
          where.push(`n.parent_id = $${params.length}`);
        }
      }
      if (filter.ids) {
        params.push(filter.ids);
        where.push(`n.id = ANY($${params.length}::bigint[])`);
      }
      if (filter.skipIds?.length) {
        params.push(filter.skipIds);
        where.push(`NOT (n.id = ANY($${params.length}::bigint[]))`);
      }
      if (filter.descendantOf !== undefined) {
        params.push(filter.descendantOf);
        where.push(`$${params.length}::bigint = ANY(n.traversal_ids) AND n.id <> $${params.length}::bigint`);
      }
      if (filter.membership) {
        params.push(filter.minAccessLevel ?? AccessLevel.Guest);
        where.push(`(n.owner_id = $1::bigint OR EXISTS (SELECT 1 FROM group_members gm WHERE gm.user_id = $1::bigint
                     AND gm.group_id = ANY(n.traversal_ids) AND gm.access_level >= $${params.length}))`);
      }
      const clause = where.join(' AND ');
      const [page, count] = await Promise.all([
        db.query<Namespace>(`${SELECT} WHERE ${clause} ORDER BY r.path LIMIT ${filter.limit} OFFSET ${filter.offset}`, params),
        db.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM namespaces n JOIN routes r ON r.source_type = 'namespace' AND r.source_id = n.id WHERE ${clause}`,
          params,
        ),
      ]);
      return { namespaces: page.rows, total: count.rows[0]!.count };
    },
    async update(id: number, fields: { name?: string; description?: string; visibility?: string }, tx?: Queryable): Promise<void> {
      const q = on(db, tx);
      await q.query(
        `UPDATE namespaces SET name = COALESCE($2, name), description = COALESCE($3, description),
                visibility = COALESCE($4, visibility), updated_at = now() WHERE id = $1`,
        [id, fields.name ?? null, fields.description ?? null, fields.visibility ?? null],
      );
    },
    /**
     * Locks a group row for a visibility change and returns what the visibility rule needs: its
     * parent's visibility and the visibilities of the projects and subgroups it holds directly.
     * Project visibility changes read the group FOR SHARE, so the two cannot pass each other.
     */
    async lockForVisibility(id: number, tx: Queryable): Promise<{ parent: Visibility | null; projects: Visibility[]; subgroups: Visibility[] }> {
      await tx.query('SELECT id FROM namespaces WHERE id = $1 FOR UPDATE', [id]);
      const { rows } = await tx.query<{ parent: Visibility | null; projects: Visibility[] | null; subgroups: Visibility[] | null }>(
        `SELECT (SELECT parent.visibility FROM namespaces parent JOIN namespaces n ON n.parent_id = parent.id WHERE n.id = $1) AS parent,
                (SELECT to_json(array_agg(DISTINCT p.visibility)) FROM projects p WHERE p.namespace_id = $1 AND NOT p.pending_delete) AS projects,
                (SELECT to_json(array_agg(DISTINCT c.visibility)) FROM namespaces c WHERE c.parent_id = $1) AS subgroups`,
        [id],
      );
      const row = rows[0]!;
      return { parent: row.parent, projects: row.projects ?? [], subgroups: row.subgroups ?? [] };
    },
    /** A namespace's visibility, read FOR SHARE: a concurrent group visibility change waits (see lockForVisibility). */
    async visibilityForShare(id: number, tx: Queryable): Promise<Visibility | undefined> {
      const { rows } = await tx.query<{ visibility: Visibility }>('SELECT visibility FROM namespaces WHERE id = $1 FOR SHARE', [id]);
      return rows[0]?.visibility;
    },
    /**
     * Moves a group and its subtree under `parent` (null: top level), in the caller's transaction:
     * parent, traversal ids, and the full paths and names of every namespace and project route
     * below it. Visibility above the new parent's comes down to it (GitLab's transfer).
     */
    async moveSubtree(group: Namespace, parent: Namespace | null, tx: Queryable): Promise<void> {
      const ids = await this.subtreeIds(group.id, tx);
      const prefix = [...(parent?.traversal_ids ?? []), group.id];
      await tx.query('UPDATE namespaces SET parent_id = $2, updated_at = now() WHERE id = $1', [group.id, parent?.id ?? null]);
      await tx.query(
        'UPDATE namespaces SET traversal_ids = $2::bigint[] || traversal_ids[$3::int + 1:] WHERE id = ANY($1)',
        [ids, prefix, group.traversal_ids.length],
      );
      const newPath = parent ? `${parent.full_path}/${group.path}` : group.path;
      const newName = parent ? `${parent.full_name} / ${group.name}` : group.name;
      await tx.query(
        `UPDATE routes SET path = $2 || substr(path, length($3) + 1), name = $4 || substr(name, length($5) + 1)
          WHERE (source_type = 'namespace' AND source_id = ANY($1))
             OR (source_type = 'project' AND source_id IN (SELECT id FROM projects WHERE namespace_id = ANY($1)))`,
        [ids, newPath, group.full_path, newName, group.full_name],
      );
      if (parent) {
        const rank = (column: string) => `CASE ${column} WHEN 'private' THEN 0 WHEN 'internal' THEN 1 ELSE 2 END`;
        await tx.query(`UPDATE namespaces SET visibility = $2 WHERE id = ANY($1) AND ${rank('visibility')} > ${rank('$2')}`, [ids, parent.visibility]);
        await tx.query(`UPDATE projects SET visibility = $2 WHERE namespace_id = ANY($1) AND ${rank('visibility')} > ${rank('$2')}`, [ids, parent.visibility]);
      }
    },
    /**
     * A group's new path (GitLab's 'Change group URL'): its route and every route below it
     * follow; the routes trigger leaves each old path as a redirect.
     */
    async changePath(group: Namespace, path: string, tx: Queryable): Promise<void> {
      const ids = await this.subtreeIds(group.id, tx);
      const newFullPath = `${group.full_path.slice(0, group.full_path.length - group.path.length)}${path}`;
      await tx.query('UPDATE namespaces SET path = $2, updated_at = now() WHERE id = $1', [group.id, path]);
      await tx.query(
        `UPDATE routes SET path = $2 || substr(path, length($3) + 1)
          WHERE (source_type = 'namespace' AND source_id = ANY($1))
             OR (source_type = 'project' AND source_id IN (SELECT id FROM projects WHERE namespace_id = ANY($1)))`,
        [ids, newFullPath, group.full_path],
      );
    },
    /** Ids of this namespace and every descendant. */
    async subtreeIds(id: number, tx?: Queryable): Promise<number[]> {
      const { rows } = await on(db, tx).query<{ id: number }>('SELECT id FROM namespaces WHERE $1 = ANY(traversal_ids)', [id]);
      return rows.map((row) => row.id);
    },
    async deleteSubtree(id: number, tx: Queryable): Promise<void> {
      const ids = await this.subtreeIds(id, tx);
      await tx.query(`DELETE FROM routes WHERE source_type = 'namespace' AND source_id = ANY($1)`, [ids]);
      await tx.query('DELETE FROM namespaces WHERE id = $1', [id]);
    },
  };
}

export type NamespacesRepository = ReturnType<typeof createNamespacesRepository>;
