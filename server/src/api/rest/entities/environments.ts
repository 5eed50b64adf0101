/** GitLab's Entities::EnvironmentBasic, Environment and Deployment. */
import type { DeploymentRow, EnvironmentRow } from '../../../domains/environments/environment.js';
import type { MergeRequestEnvironment } from '../../../domains/environments/merge-request-environments.js';
import type { DeploymentFacts, EnvironmentFacts } from '../../../domains/environments/environments.service.js';
import type { Project } from '../../../domains/projects/project.js';
import { jobEntity } from './pipelines.js';
import { userBasic, type UrlBuilder } from './users.js';

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

export function environmentBasic(environment: EnvironmentRow) {
  return {
    id: Number(environment.id),
    name: environment.name,
    slug: environment.slug,
    external_url: environment.external_url,
    created_at: iso(environment.created_at),
    updated_at: iso(environment.updated_at),
  };
}

export function deploymentEntity(deployment: DeploymentRow, project: Pick<Project, 'full_path' | 'id'>, urls: UrlBuilder, facts: DeploymentFacts) {
  const user = deployment.user_id === null ? undefined : facts.users.get(Number(deployment.user_id));
  const environment = facts.environments.get(Number(deployment.environment_id));
  const job = deployment.job_id === null ? undefined : facts.jobs.get(Number(deployment.job_id));
  return {
    id: Number(deployment.id),
    iid: deployment.iid,
    ref: deployment.ref,
    sha: deployment.sha,
    created_at: iso(deployment.created_at),
    updated_at: iso(deployment.updated_at),
    status: deployment.status,
    user: user ? userBasic(user, urls) : null,
    environment: environment ? environmentBasic(environment) : null,
    deployable: job ? jobEntity(job, project, urls, facts.facts) : null,
  };
}

export function environmentEntity(environment: EnvironmentRow, project: Pick<Project, 'full_path' | 'id'>, urls: UrlBuilder, facts: EnvironmentFacts) {
  const last = facts.last.get(Number(environment.id));
  return {
    ...environmentBasic(environment),
    tier: environment.tier,
    state: environment.state,
    auto_stop_at: iso(environment.auto_stop_at),
    description: null,
    auto_stop_setting: 'always',
    kubernetes_namespace: null,
    flux_resource_path: null,
    last_deployment: last ? deploymentEntity(last, project, urls, facts.deployments) : null,
  };
}

/** GitLab's `formatted_external_url`: the URL without its scheme. */
export const formattedExternalUrl = (url: string | null) => (url === null ? null : url.replace(/^.*?:\/\//, ''));

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** GitLab's medium time format (`%b %d, %Y %-l:%M%P`, UTC): "Nov 27, 2026 9:05pm". */
export function mediumTime(date: Date): string {
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, '0');
  const day = String(date.getUTCDate()).padStart(2, '0');
  return `${MONTHS[date.getUTCMonth()]} ${day}, ${date.getUTCFullYear()} ${hours % 12 || 12}:${minutes}${hours < 12 ? 'am' : 'pm'}`;
}

/**
 * GitLab's EnvironmentStatusEntity: one environment a merge request reached, for the merge
 * widget's deployments. Paths are the web app's (`stop_url`, `retry_url`, the playable job's
 * `play_path`), present only when the caller may take the action.
 */
export function environmentStatusEntity(item: MergeRequestEnvironment) {
  const { project, environment, deployment } = item;
  const base = `/${project.full_path}/-`;
  const deployedAt = deployment.status === 'success' && deployment.finished_at ? new Date(deployment.finished_at) : null;
  const jobPath = deployment.job_id === null ? null : `${base}/jobs/${deployment.job_id}`;
  return {
    id: Number(environment.id),
    name: environment.name,
    status: deployment.status,
    url: `${base}/environments/${environment.id}`,
    ...(item.mayStop ? { stop_url: `${base}/environments/${environment.id}/stop` } : {}),
    ...(item.mayRetry && jobPath ? { retry_url: `${jobPath}/retry` } : {}),
    external_url: environment.external_url,
    external_url_formatted: formattedExternalUrl(environment.external_url),
    deployed_at: deployedAt?.toISOString() ?? null,
    deployed_at_formatted: deployedAt ? mediumTime(deployedAt) : null,
    details: item.mayPlay && jobPath ? { playable_build: { play_path: `${jobPath}/play`, retry_path: `${jobPath}/retry` } } : {},
    deployment_approved: false,
    environment_available: environment.state === 'available',
    // the changed pages by the project's route map (`.gitlab/route-map.yml`); [] without one, as GitLab
    changes: item.changes,
  };
}
