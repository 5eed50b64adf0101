import type { Actor } from '../auth/actor.js';
import type { Authorizer } from '../auth/authorizer.js';
import type { Database } from '../platform/db/database.js';
import { NotFoundError } from '../platform/errors.js';
import type { Project } from '../domains/projects/project.js';
import type { ProjectsService } from '../domains/projects/projects.service.js';
import type { ReferenceCandidate } from './references.js';

export type ResolvedReference =
  | { kind: 'user'; href: string; title: string; username: string }
  | { kind: 'merge_request'; href: string; title: string; projectPath: string; iid: number };

/** The key under which a candidate's resolution is stored: the same object named twice resolves once. */
export function referenceKey(candidate: ReferenceCandidate, contextPath: string | null): string | null {
  if (candidate.kind === 'user') return `@${candidate.username.toLowerCase()}`;
  const path = candidate.projectPath ?? contextPath;
  return path ? `${path.toLowerCase()}!${candidate.iid}` : null;
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

  return {
    /** `maxProjects`: how many projects one call looks up (a batch of documents allows more than one document). */
    async resolve(actor: Actor, candidates: ReferenceCandidate[], context: Project | null, limits: { maxProjects?: number } = {}): Promise<Map<string, ResolvedReference>> {
      const maxProjects = limits.maxProjects ?? MAX_PROJECTS;
      const resolved = new Map<string, ResolvedReference>();
      const contextPath = context?.full_path ?? null;
      const iidsByPath = new Map<string, Set<number>>();
      const usernames = new Set<string>();
      for (const candidate of candidates) {
        if (candidate.kind === 'user') usernames.add(candidate.username.toLowerCase());
        else {
          const path = (candidate.projectPath ?? contextPath)?.toLowerCase();
          if (!path) continue;
          if (!iidsByPath.has(path) && iidsByPath.size >= maxProjects) continue;
          (iidsByPath.get(path) ?? iidsByPath.set(path, new Set()).get(path)!).add(candidate.iid);
        }
      }
      for (const [path, iids] of iidsByPath) {
        const project = await visibleProject(actor, path, context);
        if (!project) continue;
        for (const reference of await mergeRequests(actor, project, [...iids])) {
          if (reference.kind === 'merge_request') resolved.set(`${path}!${reference.iid}`, reference);
        }
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
