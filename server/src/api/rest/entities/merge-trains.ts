import type { Car } from '../../../domains/merge-trains/index.js';
import type { CarFacts } from '../../../domains/merge-trains/merge-trains.service.js';
import type { Project } from '../../../domains/projects/project.js';
import { mergeRequestSimple } from './merge-requests.js';
import { pipelineBasic } from './pipelines.js';
import { userBasic, type UrlBuilder } from './users.js';

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

/** GitLab's EE::API::Entities::MergeTrains::Car. */
export function mergeTrainCarEntity(car: Car, project: Pick<Project, 'full_path'>, facts: CarFacts, urls: UrlBuilder) {
  const mergeRequest = facts.mergeRequests.get(car.merge_request_id);
  const user = car.user_id === null ? undefined : facts.users.get(car.user_id);
  const pipeline = car.pipeline_id === null ? undefined : facts.pipelines.get(car.pipeline_id);
  return {
    id: car.id,
    merge_request: mergeRequest ? mergeRequestSimple(mergeRequest, urls) : null,
    user: user ? userBasic(user, urls) : null,
    pipeline: pipeline ? pipelineBasic(pipeline, project, urls) : null,
    created_at: iso(car.created_at),
    updated_at: iso(car.updated_at),
    target_branch: car.target_branch,
    status: car.status,
    merged_at: iso(car.merged_at),
    duration: car.duration,
  };
}
