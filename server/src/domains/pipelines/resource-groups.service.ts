/**
 * The resource groups API (GitLab's API::Ci::ResourceGroups): a project's groups, one group by
 * key, its current and upcoming jobs, and its process mode. Reading and editing them needs
 * Developer (GitLab's read_resource_group / update_resource_group); a caller who cannot see the
 * project gets 404, a lower role 403, an unknown key GitLab's `404 Not found`.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { RecordNotFoundError } from '../../platform/errors.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { PipelinesService } from './pipelines.service.js';
import type { ProcessMode, ResourceGroupRow, ResourceGroupsRepository } from './resource-groups.repository.js';

export function createResourceGroupsService(deps: {
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize'>;
  resourceGroups: ResourceGroupsRepository;
  pipelines: Pick<PipelinesService, 'describeJobs'>;
}) {
  async function open(actor: Actor, idOrPath: string | number): Promise<Project> {
    const project = await deps.projects.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, 'read_pipeline', { project });
    await deps.authorizer.authorize(actor, 'update_pipeline', { project });
    return project;
  }

  async function groupOf(actor: Actor, idOrPath: string | number, key: string): Promise<{ project: Project; group: ResourceGroupRow }> {
    const project = await open(actor, idOrPath);
    const group = await deps.resourceGroups.find(project.id, key);
    if (!group) throw new RecordNotFoundError();
    return { project, group };
  }

  return {
    async list(actor: Actor, idOrPath: string | number, page: { limit: number; offset: number }) {
      const project = await open(actor, idOrPath);
      return deps.resourceGroups.list(project.id, page.limit, page.offset);
    },

    async get(actor: Actor, idOrPath: string | number, key: string): Promise<ResourceGroupRow> {
      return (await groupOf(actor, idOrPath, key)).group;
    },

    async update(actor: Actor, idOrPath: string | number, key: string, input: { processMode?: ProcessMode }): Promise<ResourceGroupRow> {
      const { group } = await groupOf(actor, idOrPath, key);
      return input.processMode ? deps.resourceGroups.updateProcessMode(group.id, input.processMode) : group;
    },

    /** The jobs waiting for the group, in the order it hands the resource out. */
    async upcomingJobs(actor: Actor, idOrPath: string | number, key: string) {
      const { project, group } = await groupOf(actor, idOrPath, key);
      const waiting = await deps.resourceGroups.waitingJobs(group);
      const described = await deps.pipelines.describeJobs(actor, project, waiting.map((job) => job.id));
      return { project, jobs: waiting.map((job) => described.jobs.get(job.id)!).filter(Boolean), facts: described.facts };
    },

    /** The job holding the group's resource, or null. */
    async currentJob(actor: Actor, idOrPath: string | number, key: string) {
      const { project, group } = await groupOf(actor, idOrPath, key);
      const described = await deps.pipelines.describeJobs(actor, project, group.holder_job_id === null ? [] : [group.holder_job_id]);
      return { project, job: group.holder_job_id === null ? null : (described.jobs.get(group.holder_job_id) ?? null), facts: described.facts };
    },
  };
}

export type ResourceGroupsService = ReturnType<typeof createResourceGroupsService>;
