/** Jobs of pipeline #4 of project 1 as the jobs API answers them, for the graph and mini graph tests. */
import type { Job } from './api';

export const fixturePipeline = { id: 4, iid: 1, project_id: 1, sha: 'a'.repeat(40), ref: 'main', status: 'running', source: 'push', created_at: '', updated_at: '', web_url: 'http://localhost/acme/app/-/pipelines/4', name: null };

/** A job of the fixture pipeline with its detailed status (and an action, such as 'Run again'). */
export function fixtureJob(id: number, name: string, stage: string, status: string, action?: { icon: string; title: string; button_title: string }): Job {
  const text = status === 'success' ? 'passed' : status;
  return {
    id,
    name,
    stage,
    status,
    ref: 'main',
    allow_failure: false,
    created_at: '',
    started_at: null,
    finished_at: null,
    duration: null,
    queued_duration: null,
    user: null,
    pipeline: fixturePipeline,
    web_url: '',
    detailed_status: {
      icon: `status_${status}`,
      text,
      label: text,
      group: status,
      tooltip: text,
      has_details: true,
      details_path: null,
      ...(action ? { action: { ...action, path: '', method: 'post' as const } } : {}),
    },
  };
}
