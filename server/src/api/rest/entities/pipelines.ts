/** GitLab's Entities::Ci::PipelineBasic, Pipeline, Job, Bridge and Variable. */
import type { Project } from '../../../domains/projects/project.js';
import { jobDetailedStatus, manualConfirmationMessage, stopsEnvironment, pipelineDetailedStatus } from '../../../domains/pipelines/engine/detailed-status.js';
import type { JobRow, PipelineRow, PipelineVariable } from '../../../domains/pipelines/pipeline.js';
import type { JobFacts } from '../../../domains/pipelines/pipelines.service.js';
import type { ResourceGroupRow } from '../../../domains/pipelines/resource-groups.repository.js';
import type { JobArtifactRow } from '../../../domains/runner-protocol/job-artifacts.repository.js';
import type { User } from '../../../domains/users/user.js';
import { commitEntity } from './commits.js';
import { userBasic, userPublic, type UrlBuilder } from './users.js';

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);
const seconds = (from: Date | null, to: Date | null) => (from ? ((to ? new Date(to).getTime() : Date.now()) - new Date(from).getTime()) / 1000 : null);

export function pipelineBasic(pipeline: PipelineRow, project: Pick<Project, 'full_path'>, urls: UrlBuilder) {
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    project_id: pipeline.project_id,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status,
    source: pipeline.source,
    created_at: iso(pipeline.created_at),
    updated_at: iso(pipeline.updated_at),
    web_url: urls.web(`${project.full_path}/-/pipelines/${pipeline.id}`),
    name: pipeline.name,
  };
}

export function pipelineEntity(pipeline: PipelineRow, project: Pick<Project, 'full_path'>, urls: UrlBuilder, facts: { users: Map<number, User>; warnings: Set<number> }) {
  const user = pipeline.user_id === null ? undefined : facts.users.get(pipeline.user_id);
  return {
    ...pipelineBasic(pipeline, project, urls),
    before_sha: pipeline.before_sha,
    tag: pipeline.tag,
    yaml_errors: pipeline.yaml_errors,
    user: user ? userBasic(user, urls) : null,
    started_at: iso(pipeline.started_at),
    finished_at: iso(pipeline.finished_at),
    committed_at: iso(pipeline.committed_at),
    duration: pipeline.duration,
    queued_duration: pipeline.queued_duration,
    // GitLab presents coverage with two decimals, as a string
    coverage: pipeline.coverage === null ? null : pipeline.coverage.toFixed(2),
    detailed_status: pipelineDetailedStatus(
      { status: pipeline.status, warnings: facts.warnings.has(pipeline.id) },
      `/${project.full_path}/-/pipelines/${pipeline.id}`,
    ),
  };
}

export function variableEntity(variable: PipelineVariable) {
  return { variable_type: variable.variable_type, key: variable.key, value: variable.value };
}

/** GitLab's Entities::Ci::JobBasic (resource groups' current and upcoming jobs). */
export function jobBasicEntity(job: JobRow, project: Pick<Project, 'full_path' | 'id'>, urls: UrlBuilder, facts: JobFacts) {
  const { runner: _runner, artifacts: _artifacts, artifacts_file: _file, runner_manager: _manager, artifacts_expire_at: _expire, archived: _archived, tag_list: _tags, detailed_status: _status, downstream_pipeline: _downstream, ...basic } =
    jobEntity(job, project, urls, facts) as Record<string, unknown>;
  return basic;
}

export function resourceGroupEntity(group: ResourceGroupRow) {
  return { id: group.id, key: group.key, process_mode: group.process_mode, created_at: iso(group.created_at), updated_at: iso(group.updated_at) };
}

/**
 * A job's artifacts as GitLab's job entity has them: `artifacts_file` (the archive, when there is
 * one), `artifacts` (every stored file: archive, metadata, reports) and the archive's
 * `artifacts_expire_at` (null: kept for ever).
 */
function artifactsFields(artifacts: readonly JobArtifactRow[]) {
  const archive = artifacts.find((artifact) => artifact.file_type === 'archive');
  return {
    ...(archive ? { artifacts_file: { filename: archive.filename, size: archive.size } } : {}),
    artifacts: artifacts.map((artifact) => ({ file_type: artifact.file_type, size: artifact.size, filename: artifact.filename, file_format: artifact.file_format })),
    artifacts_expire_at: archive ? iso(archive.expire_at) : null,
  };
}

/** A job (Entities::Ci::Job) or, for a trigger job, a bridge (Entities::Ci::Bridge). */
export function jobEntity(job: JobRow, project: Pick<Project, 'full_path' | 'id'>, urls: UrlBuilder, facts: JobFacts, artifacts: readonly JobArtifactRow[] = []) {
  const pipeline = facts.pipelines.get(job.pipeline_id)!;
  const user = job.user_id === null ? undefined : facts.users.get(job.user_id);
  const commit = facts.commits.get(pipeline.sha);
  const path = `/${project.full_path}/-/jobs/${job.id}`;
  const common = {
    id: job.id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: pipeline.ref,
    tag: pipeline.tag,
    coverage: job.coverage,
    allow_failure: job.allow_failure,
    created_at: iso(job.created_at),
    started_at: iso(job.started_at),
    finished_at: iso(job.finished_at),
    erased_at: iso(job.erased_at),
    duration: job.started_at ? seconds(job.started_at, job.finished_at) : null,
    queued_duration: job.queued_at ? seconds(job.queued_at, job.started_at) : null,
    user: user ? userPublic(user, urls) : null,
    commit: commit ? commitEntity(commit, project, urls) : null,
    pipeline: pipelineBasic(pipeline, project, urls),
    ...(job.status === 'failed' ? { failure_reason: job.failure_reason ?? 'unknown_failure' } : {}),
    web_url: urls.web(path.slice(1)),
    project: { ci_job_token_scope_enabled: false },
  };
  if (job.type === 'bridge') {
    const downstream = facts.downstreamOf(job);
    return { ...common, downstream_pipeline: downstream ? pipelineBasic(downstream.pipeline, { full_path: downstream.fullPath }, urls) : null };
  }
  return {
    ...common,
    ...artifactsFields(artifacts),
    runner: null,
    runner_manager: null,
    archived: false,
    tag_list: job.tags,
    detailed_status: jobDetailedStatus(
      {
        status: job.status,
        allowFailure: job.allow_failure,
        failureReason: job.failure_reason,
        when: job.when,
        retried: job.retried,
        type: job.type,
        canUpdate: facts.canUpdate(job),
        manualConfirmation: manualConfirmationMessage(job), stopsEnvironment: stopsEnvironment(job),
      },
      { details: path, retry: `${path}/retry`, play: `${path}/play`, cancel: `${path}/cancel`, unschedule: `${path}/unschedule` },
    ),
  };
}
