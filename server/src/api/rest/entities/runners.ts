import type { Namespace } from '../../../domains/namespaces/namespace.js';
import type { Project } from '../../../domains/projects/project.js';
import { isOnline, runnerManagerStatus, runnerStatus } from '../../../domains/runners/runner-rules.js';
import type { Runner, RunnerManager } from '../../../domains/runners/runner.js';
import type { RunnerDetails } from '../../../domains/runners/runners.service.js';
import type { ProjectUrls } from './projects.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** GitLab's Entities::Ci::Runner. `ip_address` is an empty string since GitLab 17.0; `active` is the deprecated opposite of `paused`. */
export function runnerEntity(runner: Runner, now = new Date()) {
  return {
    id: runner.id,
    description: runner.description,
    ip_address: '',
    active: !runner.paused,
    paused: runner.paused,
    is_shared: runner.runner_type === 'instance_type',
    runner_type: runner.runner_type,
    name: null,
    online: isOnline(runner, now),
    status: runnerStatus(runner, now),
    created_at: iso(runner.created_at),
  };
}

function basicProject(project: Project) {
  return { id: project.id, name: project.name, name_with_namespace: project.full_name, path: project.path, path_with_namespace: project.full_path };
}

function basicGroup(group: Namespace, urls: ProjectUrls) {
  return { id: group.id, web_url: urls.web(`groups/${group.full_path}`), name: group.name };
}

/** GitLab's Entities::Ci::RunnerDetails: the runner, its settings, what it last reported, and the projects and group the caller may see. */
export function runnerDetailsEntity(details: RunnerDetails, urls: ProjectUrls, now = new Date()) {
  const { runner } = details;
  return {
    ...runnerEntity(runner, now),
    tag_list: runner.tag_list,
    run_untagged: runner.run_untagged,
    locked: runner.locked,
    maximum_timeout: runner.maximum_timeout,
    access_level: runner.access_level,
    version: runner.version,
    revision: runner.revision,
    platform: runner.platform,
    architecture: runner.architecture,
    contacted_at: iso(runner.contacted_at),
    maintenance_note: runner.maintenance_note,
    token_expires_at: iso(runner.token_expires_at),
    projects: details.projects.map(basicProject),
    groups: details.groups.map((group) => basicGroup(group, urls)),
  };
}

/** GitLab's Entities::Ci::RunnerRegistrationDetails: what POST /user/runners and POST /runners/verify answer. */
export function runnerRegistrationEntity(runner: Runner, token: string) {
  return { id: runner.id, token, token_expires_at: iso(runner.token_expires_at) };
}

/** GitLab's Entities::Ci::ResetTokenResult. */
export function resetTokenEntity(runner: Runner, token: string) {
  return { token, token_expires_at: iso(runner.token_expires_at) };
}

/** GitLab's Entities::Ci::RunnerManager (GET /runners/:id/managers): `job_execution_status` is `active` while a job the manager took runs. */
export function runnerManagerEntity(manager: RunnerManager & { job_execution_status: 'active' | 'idle' }, now = new Date()) {
  return {
    id: manager.id,
    system_id: manager.system_xid,
    version: manager.version,
    revision: manager.revision,
    platform: manager.platform,
    architecture: manager.architecture,
    created_at: iso(manager.created_at),
    contacted_at: iso(manager.contacted_at),
    ip_address: manager.ip_address,
    status: runnerManagerStatus(manager, now),
    job_execution_status: manager.job_execution_status,
  };
}
