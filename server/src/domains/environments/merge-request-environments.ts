/**
 * The environments a merge request reached, as GitLab's merge request widget lists them
 * (EnvironmentStatus): before the merge, the available environments of the source and target
 * projects with a deployment of the request's head commit; once merged, those with a deployment
 * of its merge commit. Each comes with what the caller may do: stop the environment, run its
 * deployment's job again, or play it when it is a manual deploy.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { ProjectAction } from '../../auth/permissions.js';
import { DomainError } from '../../platform/errors.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { DeploymentRow, EnvironmentRow } from './environment.js';
import type { EnvironmentsRepository } from './environments.repository.js';
import { changedPages, type RouteMapEntry } from './route-map.js';

export type EnvironmentTarget = 'head' | 'merge_commit';

export interface MergeRequestEnvironment {
  project: Project;
  environment: Pick<EnvironmentRow, 'id' | 'name' | 'external_url' | 'state'>;
  deployment: DeploymentRow;
  mayStop: boolean;
  /** the deployment's job may be run again by the caller */
  mayRetry: boolean;
  /** the deployment's job is a manual job the caller may play */
  mayPlay: boolean;
  /** the pages the merge request changed, by the route map at the deployed commit (route-map.ts) */
  changes: { path: string; external_url: string | null }[];
}

export interface MergeRequestCommits {
  id: number;
  state: string;
  target_project_id: number;
  source_project_id: number | null;
  head_commit_sha: string | null;
  merge_commit_sha: string | null;
  squash_commit_sha: string | null;
}

/** The commit whose deployments the widget lists: the head before the merge, the merged commit after. Pure. */
export function deployedSha(mr: MergeRequestCommits, target: EnvironmentTarget): string | null {
  if (target === 'head') return mr.head_commit_sha;
  if (mr.state !== 'merged') return null;
  // a fast-forward merge has no merge commit: the head itself (or its squash) reached the target
  return mr.merge_commit_sha ?? mr.squash_commit_sha ?? mr.head_commit_sha;
}

export function createMergeRequestEnvironments(deps: {
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'abilities'>;
  environments: Pick<EnvironmentsRepository, 'deploymentsOfSha'>;
  pipelines: Pick<PipelinesService, 'mayUpdateRef'>;
  pipelinesRepository: Pick<PipelinesRepository, 'jobsByIds'>;
  /** the project's `.gitlab/route-map.yml` at a commit, parsed; null when absent or invalid */
  routeMap?: (projectId: number, sha: string) => Promise<RouteMapEntry[] | null>;
  /** the paths the merge request's latest version changes, deleted files left out, in the diff's order */
  changedPaths?: (mergeRequestId: number) => Promise<string[]>;
}) {
  /** The projects among these whose deployments the caller may read, with the caller's abilities there. */
  async function readable(actor: Actor, projectIds: readonly number[]) {
    const opened: { project: Project; abilities: Set<ProjectAction> }[] = [];
    for (const id of new Set(projectIds)) {
      try {
        const project = await deps.projects.find(actor, id);
        const abilities = (await deps.authorizer.abilities(actor, { project })) as Set<ProjectAction>;
        if (abilities.has('read_deployment')) opened.push({ project, abilities });
      } catch (error) {
        // a source fork the caller cannot see lists nothing, as GitLab's read_environment check
        if (!(error instanceof DomainError)) throw error;
      }
    }
    return opened;
  }

  return {
    async list(actor: Actor, mr: MergeRequestCommits, target: EnvironmentTarget): Promise<MergeRequestEnvironment[]> {
      const sha = deployedSha(mr, target);
      if (sha === null) return [];
      const projects = await readable(actor, mr.source_project_id === null ? [mr.target_project_id] : [mr.source_project_id, mr.target_project_id]);
      const byId = new Map(projects.map((entry) => [entry.project.id, entry]));
      const found = await deps.environments.deploymentsOfSha([...byId.keys()], sha);
      // the deployments' jobs in one read
      const jobs = await deps.pipelinesRepository.jobsByIds(found.flatMap(({ deployment }) => (deployment.job_id === null ? [] : [Number(deployment.job_id)])));
      const listed: MergeRequestEnvironment[] = [];
      // GitLab's EnvironmentStatus#changes: the route map at the deployed commit, read once per project
      const routeMaps = new Map<number, Promise<RouteMapEntry[] | null>>();
      const routeMapOf = (projectId: number) => {
        if (!deps.routeMap) return Promise.resolve(null);
        let map = routeMaps.get(projectId);
        if (!map) routeMaps.set(projectId, (map = deps.routeMap(projectId, sha)));
        return map;
      };
      let paths: Promise<string[]> | null = null;
      const changedPaths = () => (paths ??= deps.changedPaths ? deps.changedPaths(mr.id) : Promise.resolve([]));
      for (const { environment, deployment } of found) {
        const { project, abilities } = byId.get(Number(environment.project_id))!;
        const mayUpdateRef = abilities.has('update_pipeline') && (await deps.pipelines.mayUpdateRef(actor, project, deployment.ref, deployment.tag));
        const job = deployment.job_id === null ? null : (jobs.get(Number(deployment.job_id)) ?? null);
        const routeMap = await routeMapOf(project.id);
        const changes = routeMap ? changedPages(routeMap, await changedPaths(), environment.external_url) : [];
        listed.push({
          project,
          environment,
          deployment,
          mayStop: abilities.has('update_deployment') && environment.state === 'available',
          mayRetry: job !== null && mayUpdateRef,
          mayPlay: job !== null && job.status === 'manual' && mayUpdateRef,
          changes,
        });
      }
      return listed.sort((a, b) => a.environment.name.localeCompare(b.environment.name));
    },
  };
}

export type MergeRequestEnvironments = ReturnType<typeof createMergeRequestEnvironments>;
