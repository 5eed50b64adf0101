import { AccessLevel, FEATURE_LEVELS, featureField, featureMinimumAccessLevel, type ProjectFeature } from '@tributary/contracts';

/**
 * "Who may read this project (or group)" as SQL conditions, for the list queries that cannot
 * ask the permission function row by row. They are permissions.ts's rules, written once here
 * and tested against it over the access matrix (readable-sql.int.test.ts):
 *
 * - read_project (canRead): administrators; anyone for public; anyone signed in for internal;
 *   members (direct, through a group above it, or the personal namespace's owner) for private;
 * - download_code: the same, but private code needs a Reporter, and the repository feature;
 * - read_merge_request (merge requests show code): download_code and the merge requests feature.
 *
 * Membership counts while it has not expired, as in the effective access level.
 */
export interface ReadableSqlRefs {
  /** the caller's user id (NULL for anonymous callers), e.g. `$1::bigint` */
  user: string;
  /** whether the caller is an administrator, e.g. `$2::boolean` */
  admin: string;
  /** the projects table's alias */
  project?: string;
  /** the alias of the project's namespace (or of the group itself) */
  namespace?: string;
}

const ACTIVE = (alias: string) => `(${alias}.expires_at IS NULL OR ${alias}.expires_at >= current_date)`;

/** Is the caller a member of project `p` with at least `level` (an SQL expression): directly, through a group above it, or owning its personal namespace? */
export function projectMemberAtLeastSql(level: string, refs: ReadableSqlRefs): string {
  const p = refs.project ?? 'p';
  const n = refs.namespace ?? 'n';
  return `(${n}.owner_id = ${refs.user}
     OR EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = ${p}.id AND pm.user_id = ${refs.user} AND pm.access_level >= ${level} AND ${ACTIVE('pm')})
     OR EXISTS (SELECT 1 FROM group_members gm WHERE gm.user_id = ${refs.user} AND gm.group_id = ANY(${n}.traversal_ids) AND gm.access_level >= ${level} AND ${ACTIVE('gm')}))`;
}

/** Is the caller a member of group `n` with at least `level` (an SQL expression), directly or through a group above it? */
export function groupMemberAtLeastSql(level: string, refs: ReadableSqlRefs): string {
  const n = refs.namespace ?? 'n';
  return `EXISTS (SELECT 1 FROM group_members gm WHERE gm.user_id = ${refs.user} AND gm.group_id = ANY(${n}.traversal_ids) AND gm.access_level >= ${level} AND ${ACTIVE('gm')})`;
}

/** May the caller `read_project` (or `download_code` of, or `read_merge_request` in) project `p` in namespace `n`? permissions.ts's rule in SQL. */
export function projectReadableSql(ability: 'read_project' | 'download_code' | 'read_merge_request', refs: ReadableSqlRefs): string {
  const p = refs.project ?? 'p';
  const minimum = ability === 'read_project' ? AccessLevel.Guest : AccessLevel.Reporter;
  const readable = `(${refs.admin} OR ${p}.visibility = 'public' OR (${p}.visibility = 'internal' AND ${refs.user} IS NOT NULL)
     OR ${projectMemberAtLeastSql(String(minimum), refs)})`;
  if (ability === 'read_project') return readable;
  const code = `(${readable} AND ${projectFeatureSql('repository', refs)})`;
  return ability === 'download_code' ? code : `(${code} AND ${projectFeatureSql('merge_requests', refs)})`;
}

/** permissions.ts's featureAvailable in SQL: enabled or public, or private and the caller a member of the feature's minimum role (or an administrator). */
export function projectFeatureSql(feature: ProjectFeature, refs: ReadableSqlRefs): string {
  const p = refs.project ?? 'p';
  const column = `${p}.${featureField(feature)}`;
  const privateMinimum = featureMinimumAccessLevel(feature, 'private');
  const otherMinimum = featureMinimumAccessLevel(feature, 'public');
  const minimum = privateMinimum === otherMinimum ? String(privateMinimum) : `(CASE WHEN ${p}.visibility = 'private' THEN ${privateMinimum} ELSE ${otherMinimum} END)`;
  return `(${column} >= ${FEATURE_LEVELS.enabled} OR (${column} = ${FEATURE_LEVELS.private} AND (${refs.admin} OR ${projectMemberAtLeastSql(minimum, refs)})))`;
}

/** May the caller read namespace `n` (a group, or a personal namespace it owns)? permissions.ts's canRead in SQL. */
export function namespaceReadableSql(refs: ReadableSqlRefs): string {
  const n = refs.namespace ?? 'n';
  return `(${refs.admin} OR ${n}.visibility = 'public' OR (${n}.visibility = 'internal' AND ${refs.user} IS NOT NULL)
     OR ${n}.owner_id = ${refs.user}
     OR EXISTS (SELECT 1 FROM group_members gm WHERE gm.user_id = ${refs.user} AND gm.group_id = ANY(${n}.traversal_ids) AND gm.access_level >= ${AccessLevel.Guest} AND ${ACTIVE('gm')}))`;
}
