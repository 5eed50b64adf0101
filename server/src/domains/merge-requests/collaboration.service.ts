import { AccessLevel } from '@tributary/contracts';
import type { Database } from '../../platform/db/database.js';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Project } from '../projects/project.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import type { PusherFacts } from '../protected-branches/push-rules.js';
import { collaborationBranches, type CollaborationCandidate } from './collaboration.js';

interface AllowingRow {
  state: string;
  allow_collaboration: boolean;
  source_branch: string;
  target_project_id: number;
  target_branch: string;
}

/**
 * Loads the facts of the collaboration rule (collaboration.ts) for one caller and one
 * project, and builds the push-rule facts every branch-writing surface checks: git push,
 * file and commit writes, rebase and suggestions. Members with push rights never pay for
 * the lookup; for everyone else it is one indexed query that is usually empty.
 */
export function createCollaboration(deps: {
  db: Pick<Database, 'query'>;
  projects: Pick<ProjectsRepository, 'findById'>;
  authorizer: Pick<Authorizer, 'accessLevel'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
}) {
  /** Open merge requests out of this project that allow collaboration, into other projects. */
  async function allowing(projectId: number): Promise<AllowingRow[]> {
    const { rows } = await deps.db.query<AllowingRow>(
      `SELECT state, allow_collaboration, source_branch, target_project_id, target_branch
         FROM merge_requests
        WHERE source_project_id = $1 AND target_project_id <> $1 AND state = 'opened' AND allow_collaboration`,
      [projectId],
    );
    return rows;
  }

  async function branchesFor(actor: Actor, project: Project): Promise<string[]> {
    const user = actor.user;
    if (!user || project.visibility === 'private') return [];
    const rows = await allowing(project.id);
    if (rows.length === 0) return [];
    const candidates: CollaborationCandidate[] = [];
    for (const row of rows) {
      const target = await deps.projects.findById(Number(row.target_project_id));
      if (!target) continue;
      candidates.push({
        state: row.state,
        allowCollaboration: row.allow_collaboration,
        sourceBranch: row.source_branch,
        targetProjectId: target.id,
        targetBranch: row.target_branch,
        targetVisibility: target.visibility,
        targetArchived: target.archived,
        merger: { userId: user.id, isAdmin: user.is_admin, accessLevel: await deps.authorizer.accessLevel(actor, { project: target }) },
        targetProtections: await deps.protectedBranches.listForProject(target.id),
      });
    }
    return collaborationBranches(project, await deps.protectedBranches.listForProject(project.id), candidates);
  }

  return {
    /** The branches of `project` the caller may add commits to only through collaboration (usually none). */
    branchesFor,
    /**
     * The push-rule facts for a caller on a project: their access level, and for callers
     * below Developer the branches collaboration opens to them. `accessLevel` is 0 when the
     * caller may not push at all (an archived project, a missing scope).
     */
    async pusher(actor: Actor, project: Project, accessLevel: number): Promise<PusherFacts> {
      const user = actor.user!;
      const facts: PusherFacts = { userId: user.id, isAdmin: user.is_admin, accessLevel };
      if (user.is_admin || accessLevel >= AccessLevel.Developer) return facts;
      return { ...facts, collaborationBranches: await branchesFor(actor, project) };
    },
  };
}

export type Collaboration = ReturnType<typeof createCollaboration>;
