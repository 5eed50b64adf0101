import { AccessLevel, featureField, PROJECT_FEATURES } from '@tributary/contracts';
import { projectMemberAtLeastSql, projectReadableSql } from '../../auth/readable-sql.js';
import { on, type Queryable } from '../../platform/db/database.js';
import { effectiveAccessLevelSql } from '../members/members.repository.js';
import type { Project } from './project.js';

const SELECT = `SELECT p.id, p.namespace_id, p.name, p.path, r.path AS full_path, r.name AS full_name, p.description, p.visibility,
       p.default_branch, p.creator_id, p.forked_from_id, p.archived, p.empty_repo, p.pending_delete, p.merge_method, p.squash_option,
       p.only_allow_merge_if_pipeline_succeeds, p.allow_merge_on_skipped_pipeline, p.merge_pipelines_enabled, p.merge_trains_enabled, p.merge_trains_skip_train_allowed, p.only_allow_merge_if_all_discussions_are_resolved, p.resolve_outdated_diff_discussions,
       p.remove_source_branch_after_merge, p.merge_commit_template, p.squash_commit_template,
       p.merge_request_title_regex, p.merge_request_title_regex_description, p.avatar_filename, ${PROJECT_FEATURES.map((f) => `p.${featureField(f)}`).join(', ')},
       p.public_builds, p.created_at, p.updated_at, p.last_activity_at,
       n.kind AS namespace_kind, n.owner_id AS namespace_owner_id, to_json(n.traversal_ids) AS namespace_traversal_ids,
       n.visibility AS namespace_visibility, n.name AS namespace_name, n.path AS namespace_path,
       nr.path AS namespace_full_path, n.parent_id AS namespace_parent_id
  FROM projects p
  JOIN routes r ON r.source_type = 'project' AND r.source_id = p.id
  JOIN namespaces n ON n.id = p.namespace_id
  JOIN routes nr ON nr.source_type = 'namespace' AND nr.source_id = n.id`;

/** The caller: user $1 (NULL when anonymous), administrator flag $2. */
const CALLER = { user: '$1::bigint', admin: '$2' };
const VISIBLE = projectReadableSql('read_project', CALLER);
const memberAtLeast = (levelParam: string) => projectMemberAtLeastSql(levelParam, CALLER);

export interface NewProject {
  namespaceId: number;
  name: string;
  path: string;
  fullPath: string;
  fullName: string;
  description: string;
  visibility: string;
  defaultBranch: string;
  creatorId: number | null;
  forkedFromId?: number | null;
}

export interface ProjectListFilter {
  userId: number | null;
  isAdmin: boolean;
  search?: string;
  membership?: boolean;
  owned?: boolean;
  minAccessLevel?: number;
  visibility?: string;
  namespaceIds?: number[];
  archived?: boolean;
  /** only direct forks of this project (GET /projects/:id/forks) */
  forkedFromId?: number;
  orderBy: 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export function createProjectsRepository(db: Queryable) {
  const repository = {
    async insert(input: NewProject, tx: Queryable): Promise<number> {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO projects (namespace_id, name, path, description, visibility, default_branch, creator_id, forked_from_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [input.namespaceId, input.name, input.path, input.description, input.visibility, input.defaultBranch, input.creatorId, input.forkedFromId ?? null],
      );
      const id = rows[0]!.id;
      await tx.query(`INSERT INTO routes (source_type, source_id, path, name) VALUES ('project', $1, $2, $3)`, [id, input.fullPath, input.fullName]);
      return id;
    },
    /**
     * One project with the viewer's effective access level, in one query:
     * the lookup behind every project-scoped request.
     */
    async findForViewer(key: { id: number } | { fullPath: string }, userId: number | null): Promise<(Project & { viewer_access_level: number }) | undefined> {
      const level = effectiveAccessLevelSql({
        user: '$2::bigint',
        groupIds: "(CASE WHEN n.kind = 'group' THEN n.traversal_ids ELSE '{}'::bigint[] END)",
        projectId: 'p.id',
        namespaceOwner: 'n.owner_id',
      });
      const byId = 'id' in key;
      const { rows } = await db.query<Project & { viewer_access_level: number }>(
        `${SELECT.replace('SELECT ', `SELECT ${level} AS viewer_access_level, `)}
          WHERE ${byId ? 'p.id = $1' : 'lower(r.path) = lower($1)'} AND NOT p.pending_delete`,
        [byId ? key.id : key.fullPath, userId],
        { name: byId ? 'projects.find_by_id_for_viewer' : 'projects.find_by_path_for_viewer' },
      );
      if (rows[0] || byId) return rows[0];
      // GitLab's follow_redirects: an old path of a renamed or moved project still finds it
      // (its full_path then differs from the path asked for).
      const redirected = await repository.redirectedProjectId(key.fullPath);
      return redirected === undefined ? undefined : repository.findForViewer({ id: redirected }, userId);
    },
    /** The project that had this path before a rename or transfer (redirect_routes), if any. */
    async redirectedProjectId(fullPath: string): Promise<number | undefined> {
      const { rows } = await db.query<{ source_id: number }>(
        `SELECT source_id FROM redirect_routes WHERE source_type = 'project' AND lower(path) = lower($1)`,
        [fullPath],
        { name: 'projects.redirected_project_id' },
      );
      return rows[0] === undefined ? undefined : Number(rows[0].source_id);
    },
    async findById(id: number, tx?: Queryable): Promise<Project | undefined> {
      const { rows } = await on(db, tx).query<Project>(`${SELECT} WHERE p.id = $1 AND NOT p.pending_delete`, [id]);
      return rows[0];
    },
    async findByFullPath(fullPath: string, tx?: Queryable): Promise<Project | undefined> {
      const { rows } = await on(db, tx).query<Project>(`${SELECT} WHERE lower(r.path) = lower($1) AND NOT p.pending_delete`, [fullPath]);
      return rows[0];
    },
    async list(filter: ProjectListFilter): Promise<{ projects: Project[]; total: number }> {
      const params: unknown[] = [filter.userId, filter.isAdmin];
      const where = ['NOT p.pending_delete', VISIBLE];
      if (filter.search) {
        params.push(`%${filter.search.toLowerCase()}%`);
        where.push(`(lower(p.name) LIKE $${params.length} OR lower(r.path) LIKE $${params.length} OR lower(p.description) LIKE $${params.length})`);
      }
      if (filter.membership) {
        params.push(filter.minAccessLevel ?? AccessLevel.Guest);
        where.push(memberAtLeast(`$${params.length}`));
      } else if (filter.minAccessLevel) {
        params.push(filter.minAccessLevel);
        where.push(memberAtLeast(`$${params.length}`));
      }
      if (filter.owned) where.push(`n.kind = 'user' AND n.owner_id = $1::bigint`);
      if (filter.visibility) {
        params.push(filter.visibility);
        where.push(`p.visibility = $${params.length}`);
      }
      if (filter.namespaceIds) {
        params.push(filter.namespaceIds);
        where.push(`p.namespace_id = ANY($${params.length})`);
      }
      if (filter.archived !== undefined) {
        params.push(filter.archived);
        where.push(`p.archived = $${params.length}`);
      }
      if (filter.forkedFromId !== undefined) {
        params.push(filter.forkedFromId);
        where.push(`p.forked_from_id = $${params.length}`);
      }
      const clause = where.join(' AND ');
      const order = `${filter.orderBy === 'path' ? 'r.path' : `p.${filter.orderBy}`} ${filter.sort === 'asc' ? 'ASC' : 'DESC'}, p.id ${filter.sort === 'asc' ? 'ASC' : 'DESC'}`;
      const from = `FROM projects p JOIN routes r ON r.source_type = 'project' AND r.source_id = p.id JOIN namespaces n ON n.id = p.namespace_id`;
      const [page, count] = await Promise.all([
        db.query<Project>(`${SELECT} WHERE ${clause} ORDER BY ${order} LIMIT ${filter.limit} OFFSET ${filter.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count ${from} WHERE ${clause}`, params),
      ]);
      return { projects: page.rows, total: count.rows[0]!.count };
    },
    async update(id: number, fields: Record<string, unknown>, tx?: Queryable): Promise<void> {
      const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
      if (entries.length === 0) return;
      // Column names come from the service's fixed allow-list, never from the request.
      const sets = entries.map(([column], index) => `${column} = $${index + 2}`);
      await on(db, tx).query(`UPDATE projects SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [id, ...entries.map(([, value]) => value)]);
    },
    async updateRouteName(id: number, fullName: string, tx?: Queryable): Promise<void> {
      await on(db, tx).query(`UPDATE routes SET name = $2 WHERE source_type = 'project' AND source_id = $1`, [id, fullName]);
    },
    /** A transfer or a new path: the project's route (full path and full name) follows. */
    async updateRoute(id: number, fullPath: string, fullName: string, tx: Queryable): Promise<void> {
      await tx.query(`UPDATE routes SET path = $2, name = $3 WHERE source_type = 'project' AND source_id = $1`, [id, fullPath, fullName]);
    },
    /** Whether another project in the namespace has this path or name (GitLab's transfer check). */
    async nameOrPathTakenIn(namespaceId: number, path: string, name: string, tx?: Queryable): Promise<boolean> {
      const { rows } = await on(db, tx).query(
        'SELECT 1 FROM projects WHERE namespace_id = $1 AND (lower(path) = lower($2) OR name = $3) AND NOT pending_delete LIMIT 1',
        [namespaceId, path, name],
      );
      return rows.length > 0;
    },
    /** Stores the avatar's bytes and names it on the project row (what avatar_url needs). */
    async saveAvatar(id: number, avatar: { filename: string; contentType: string; data: Buffer }, tx: Queryable): Promise<void> {
      await tx.query(
        `INSERT INTO project_avatars (project_id, content_type, data) VALUES ($1, $2, $3)
         ON CONFLICT (project_id) DO UPDATE SET content_type = EXCLUDED.content_type, data = EXCLUDED.data, updated_at = now()`,
        [id, avatar.contentType, avatar.data],
      );
      await tx.query('UPDATE projects SET avatar_filename = $2, updated_at = now() WHERE id = $1', [id, avatar.filename]);
    },
    async readAvatar(id: number): Promise<{ content_type: string; data: Buffer } | undefined> {
      const { rows } = await db.query<{ content_type: string; data: Buffer | Uint8Array }>('SELECT content_type, data FROM project_avatars WHERE project_id = $1', [id]);
      const row = rows[0];
      return row ? { content_type: row.content_type, data: Buffer.from(row.data) } : undefined;
    },
    /** After a push: activity time and whether any branch exists now. */
    async recordPush(id: number, emptyRepo: boolean, tx?: Queryable): Promise<void> {
      await on(db, tx).query('UPDATE projects SET last_activity_at = now(), empty_repo = $2 WHERE id = $1', [id, emptyRepo]);
    },
    async markPendingDelete(ids: number[], tx: Queryable): Promise<void> {
      await tx.query('UPDATE projects SET pending_delete = true WHERE id = ANY($1)', [ids]);
      await tx.query(`DELETE FROM routes WHERE source_type = 'project' AND source_id = ANY($1)`, [ids]);
    },
    async idsInNamespaces(namespaceIds: number[], tx?: Queryable): Promise<number[]> {
      const { rows } = await on(db, tx).query<{ id: number }>('SELECT id FROM projects WHERE namespace_id = ANY($1)', [namespaceIds]);
      return rows.map((row) => row.id);
    },
    async deleteRow(id: number): Promise<void> {
      await db.query('DELETE FROM projects WHERE id = $1', [id]);
    },
  };
  return repository;
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
