/** GitLab's Entities::Ci::PipelineSchedule and PipelineScheduleDetails. */
import type { PipelineScheduleRow, ScheduleVariable } from '../../../domains/pipeline-schedules/pipeline-schedule.js';
import type { PipelineRow } from '../../../domains/pipelines/pipeline.js';
import type { Project } from '../../../domains/projects/project.js';
import type { User } from '../../../domains/users/user.js';
import { pipelineBasic } from './pipelines.js';
import { userBasic, type UrlBuilder } from './users.js';

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

export function pipelineScheduleEntity(schedule: PipelineScheduleRow, owner: User | null, urls: UrlBuilder) {
  return {
    id: schedule.id,
    description: schedule.description,
    ref: schedule.ref,
    cron: schedule.cron,
    cron_timezone: schedule.cron_timezone,
    next_run_at: iso(schedule.next_run_at),
    active: schedule.active,
    created_at: iso(schedule.created_at),
    updated_at: iso(schedule.updated_at),
    owner: owner ? userBasic(owner, urls) : null,
  };
}

export function scheduleVariableEntity(variable: ScheduleVariable) {
  return { variable_type: variable.variable_type, key: variable.key, value: variable.value };
}

/** With the last pipeline it created and, for those who may edit it, its variables. */
export function pipelineScheduleDetails(
  details: { schedule: PipelineScheduleRow; owner: User | null; lastPipeline: PipelineRow | null; variables: ScheduleVariable[] | null; project: Pick<Project, 'full_path'> },
  urls: UrlBuilder,
) {
  return {
    ...pipelineScheduleEntity(details.schedule, details.owner, urls),
    last_pipeline: details.lastPipeline ? pipelineBasic(details.lastPipeline, details.project, urls) : null,
    ...(details.variables ? { variables: details.variables.map(scheduleVariableEntity) } : {}),
  };
}
