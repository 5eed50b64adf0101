/** GitLab's Entities::EnvironmentBasic, Environment and Deployment. */
import type { DeploymentRow, EnvironmentRow } from '../../../domains/environments/environment.js';
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
