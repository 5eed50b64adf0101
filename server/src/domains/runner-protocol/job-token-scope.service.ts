/**
 * The CI/CD job token scope API (GitLab's API::Ci::JobTokenScope): a project's inbound
 * allowlist, the projects whose job tokens may read it (their jobs' `needs: project:` artifacts,
 * its API). Maintainers read and edit it (GitLab's admin_project); a caller who cannot see the
 * project gets 404, a lower role 403. The project to add must be one the caller can see.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { JobTokenScopeRepository } from './job-token-scope.repository.js';

export function createJobTokenScopeService(deps: {
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize'>;
  scope: JobTokenScopeRepository;
}) {
  async function open(actor: Actor, idOrPath: string | number): Promise<Project> {
    const project = await deps.projects.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, 'admin_project', { project });
    return project;
  }

  return {
    /** Whether job tokens of `sourceProjectId` may reach `projectId` (the REST authenticator asks before the authorizer does). */
    allows: (projectId: number, sourceProjectId: number) => deps.scope.allows(projectId, sourceProjectId),

    /** GET /projects/:id/job_token_scope: the inbound scope is always enforced here. */
    async settings(actor: Actor, idOrPath: string | number): Promise<{ inbound_enabled: boolean; outbound_enabled: boolean }> {
      await open(actor, idOrPath);
      return { inbound_enabled: true, outbound_enabled: false };
    },

    /** The allowed projects the caller can see, oldest entry first. */
    async allowlist(actor: Actor, idOrPath: string | number): Promise<Project[]> {
      const project = await open(actor, idOrPath);
      const entries = await deps.scope.list(project.id);
      const projects: Project[] = [];
      for (const entry of entries) {
        const allowed = await deps.projects.find(actor, entry.allowed_project_id).catch(() => null);
        if (allowed) projects.push(allowed);
      }
      return projects;
    },

    async add(actor: Actor & { user: { id: number } }, idOrPath: string | number, targetProjectId: number): Promise<{ source_project_id: number; target_project_id: number }> {
      const project = await open(actor, idOrPath);
      const target = await deps.projects.find(actor, targetProjectId).catch(() => {
        throw new NotFoundError('target_project');
      });
      if (!(await deps.scope.add(project.id, target.id, actor.user.id))) throw new ValidationError('400 Bad request - Target project is already in the job token scope');
      return { source_project_id: project.id, target_project_id: target.id };
    },

    async remove(actor: Actor, idOrPath: string | number, targetProjectId: number): Promise<void> {
      const project = await open(actor, idOrPath);
      const target = await deps.projects.find(actor, targetProjectId);
      if (!(await deps.scope.remove(project.id, target.id))) throw new ValidationError('400 Bad request - Target project is not in the job token scope');
    },
  };
}

export type JobTokenScopeService = ReturnType<typeof createJobTokenScopeService>;
