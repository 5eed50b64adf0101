import type { Actor } from '../auth/actor.js';
import type { Authorizer } from '../auth/authorizer.js';
import type { Database } from '../platform/db/database.js';
import { NotFoundError } from '../platform/errors.js';
import type { Project } from '../domains/projects/project.js';
import type { ProjectsService } from '../domains/projects/projects.service.js';
import type { ReferenceCandidate } from './references.js';

export type ResolvedReference =
  | { kind: 'user'; href: string; title: string; username: string }
  | { kind: 'merge_request'; href: string; title: string; projectPath: string; iid: number }
  | { kind: 'label'; href: string; title: string; name: string; color: string; projectPath: string }
  | { kind: 'milestone'; href: string; title: string; projectPath: string };

/** The key under which a candidate's resolution is stored: the same object named twice resolves once. */
export function referenceKey(candidate: ReferenceCandidate, contextPath: string | null): string | null {
  if (candidate.kind === 'user') return `@${candidate.username.toLowerCase()}`;
  const path = (candidate.projectPath ?? contextPath)?.toLowerCase();
  if (!path) return null;
  if (candidate.kind === 'merge_request') return `${path}!${candidate.iid}`;
  if (candidate.kind === 'label') return candidate.id !== null ? `${path}~${candidate.id}` : `${path}~"${candidate.name}"`;
  return candidate.iid !== null ? `${path}%${candidate.iid}` : `${path}%"${candidate.name}"`;
}

/** A document naming more projects than this links only the first ones (each costs a lookup). */
export const MAX_PROJECTS = 20;

/** A document's candidates without the merge requests of projects past its first MAX_PROJECTS (what `resolve` would skip). */
export function limitProjects(candidates: ReferenceCandidate[], contextPath: string | null): ReferenceCandidate[] {
  const paths = new Set<string>();
  return candidates.filter((candidate) => {
    if (candidate.kind === 'user') return true;
    const path = (candidate.projectPath ?? contextPath)?.toLowerCase();
    if (!path) return false;
    if (!paths.has(path) && paths.size >= MAX_PROJECTS) return false;
    paths.add(path);
    return true;
  });
}

/**
 * Turns candidates into links, with the reader's permissions: a merge request the reader
 * may not see (private project, no read_merge_request) resolves to nothing, exactly like
 * one that does not exist, so rendered text never reveals what is hidden.
 */
export function createReferenceResolver(deps: { db: Pick<Database, 'query'>; projects: Pick<ProjectsService, 'find'>; authorizer: Authorizer }) {
  async function visibleProject(actor: Actor, path: string, context: Project | null): Promise<Project | null> {
    if (context && context.full_path.toLowerCase() === path.toLowerCase()) return context;
    try {
      return await deps.projects.find(actor, path);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  async function mergeRequests(actor: Actor, project: Project, iids: number[]): Promise<ResolvedReference[]> {
    if (!(await deps.authorizer.can(actor, 'read_merge_request', { project }))) return [];
    const { rows } = await deps.db.query<{ iid: number; title: string }>(
      'SELECT iid, title FROM merge_requests WHERE target_project_id = $1 AND iid = ANY($2::int[])',
      [project.id, iids],
    );
    return rows.map((row) => ({
      kind: 'merge_request',
      href: `/${project.full_path}/-/merge_requests/${row.iid}`,
      title: row.title,
      projectPath: project.full_path,
      iid: row.iid,
    }));
  }

  /** Labels the project offers (its own and its groups'), named by id or title, if the reader may read them. */
  async function labels(actor: Actor, project: Project, path: string, ids: number[], names: string[], into: Map<string, ResolvedReference>): Promise<void> {
    if ((ids.length === 0 && names.length === 0) || !(await deps.authorizer.can(actor, 'read_label', { project }))) return;
    const groupIds = project.namespace_kind === 'group' ? project.namespace_traversal_ids : [];
    const { rows } = await deps.db.query<{ id: number; title: string; color: string; description: string | null; project_id: number | null }>(
      `SELECT id, title, color, description, project_id FROM labels WHERE (project_id = $1 OR group_id = ANY($2::bigint[]))
          AND (id = ANY($3::bigint[]) OR title = ANY($4::text[])) ORDER BY project_id NULLS FIRST, array_position($2::bigint[], group_id) NULLS FIRST`,
      [project.id, groupIds, ids, names],
    );
    // the nearest owner wins a name: later rows (the project's, then nearer groups') overwrite
    for (const row of rows) {
      const reference: ResolvedReference = {
        kind: 'label',
        href: `/${project.full_path}/-/merge_requests?label_name[]=${encodeURIComponent(row.title)}`,
        title: row.description ?? '',
        name: row.title,
        color: row.color,
        projectPath: project.full_path,
      };
      if (ids.includes(Number(row.id))) into.set(`${path}~${row.id}`, reference);
      if (names.includes(row.title)) into.set(`${path}~"${row.title}"`, reference);
    }
  }

  /** Milestones the project offers: its own by iid or title, its groups' by title. */
  async function milestones(actor: Actor, project: Project, path: string, iids: number[], names: string[], into: Map<string, ResolvedReference>): Promise<void> {
    if ((iids.length === 0 && names.length === 0) || !(await deps.authorizer.can(actor, 'read_milestone', { project }))) return;
    const groupIds = project.namespace_kind === 'group' ? project.namespace_traversal_ids : [];
    const { rows } = await deps.db.query<{ iid: number; title: string; project_id: number | null; owner_path: string }>(
      `SELECT ms.iid, ms.title, ms.project_id, coalesce(rp.path, 'groups/' || rg.path) AS owner_path FROM milestones ms
         LEFT JOIN routes rp ON rp.source_type = 'project' AND rp.source_id = ms.project_id
         LEFT JOIN routes rg ON rg.source_type = 'namespace' AND rg.source_id = ms.group_id
        WHERE ((ms.project_id = $1 AND ms.iid = ANY($3::int[])) OR ((ms.project_id = $1 OR ms.group_id = ANY($2::bigint[])) AND ms.title = ANY($4::text[])))
        ORDER BY ms.project_id NULLS FIRST`,
      [project.id, groupIds, iids, names],
    );
    for (const row of rows) {
      const reference: ResolvedReference = { kind: 'milestone', href: `/${row.owner_path}/-/milestones/${row.iid}`, title: row.title, projectPath: project.full_path };
      if (row.project_id !== null && iids.includes(row.iid)) into.set(`${path}%${row.iid}`, reference);
      if (names.includes(row.title)) into.set(`${path}%"${row.title}"`, reference);
    }
  }

  return {
    /** `maxProjects`: how many projects one call looks up (a batch of documents allows more than one document). */
    async resolve(actor: Actor, candidates: ReferenceCandidate[], context: Project | null, limits: { maxProjects?: number } = {}): Promise<Map<string, ResolvedReference>> {
      const maxProjects = limits.maxProjects ?? MAX_PROJECTS;
      const resolved = new Map<string, ResolvedReference>();
      const contextPath = context?.full_path ?? null;
      const byPath = new Map<string, { iids: Set<number>; labelIds: Set<number>; labelNames: Set<string>; milestoneIids: Set<number>; milestoneNames: Set<string> }>();
      const usernames = new Set<string>();
      for (const candidate of candidates) {
        if (candidate.kind === 'user') usernames.add(candidate.username.toLowerCase());
        else {
          const path = (candidate.projectPath ?? contextPath)?.toLowerCase();
          if (!path) continue;
          if (!byPath.has(path) && byPath.size >= maxProjects) continue;
          const wanted = byPath.get(path) ?? byPath.set(path, { iids: new Set(), labelIds: new Set(), labelNames: new Set(), milestoneIids: new Set(), milestoneNames: new Set() }).get(path)!;
          if (candidate.kind === 'merge_request') wanted.iids.add(candidate.iid);
          else if (candidate.kind === 'label') {
            if (candidate.id !== null) wanted.labelIds.add(candidate.id);
            else wanted.labelNames.add(candidate.name!);
          } else if (candidate.iid !== null) wanted.milestoneIids.add(candidate.iid);
          else wanted.milestoneNames.add(candidate.name!);
        }
      }
      for (const [path, wanted] of byPath) {
        const project = await visibleProject(actor, path, context);
        if (!project) continue;
        if (wanted.iids.size > 0) {
          for (const reference of await mergeRequests(actor, project, [...wanted.iids])) {
            if (reference.kind === 'merge_request') resolved.set(`${path}!${reference.iid}`, reference);
          }
        }
        await labels(actor, project, path, [...wanted.labelIds], [...wanted.labelNames], resolved);
        await milestones(actor, project, path, [...wanted.milestoneIids], [...wanted.milestoneNames], resolved);
      }
      if (usernames.size > 0) {
        const { rows } = await deps.db.query<{ username: string; name: string }>(
          'SELECT username, name FROM users WHERE lower(username) = ANY($1::text[])',
          [[...usernames]],
        );
        for (const row of rows) {
          resolved.set(`@${row.username.toLowerCase()}`, { kind: 'user', href: `/${row.username}`, title: row.name, username: row.username });
        }
      }
      return resolved;
    },
  };
}

export type ReferenceResolver = ReturnType<typeof createReferenceResolver>;
