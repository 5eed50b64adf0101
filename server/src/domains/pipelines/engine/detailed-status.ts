/**
 * GitLab's `detailed_status` (Gitlab::Ci::Status::Factory and its Pipeline:: and Build::
 * extensions), pure: the icon, text, label, group, tooltip and favicon a status is shown with,
 * and for a job the action a user may take on it (retry, play, cancel, unschedule).
 */
import type { Status } from './status.js';

export interface DetailedStatus {
  icon: string;
  text: string;
  label: string;
  group: string;
  tooltip: string;
  has_details: boolean;
  details_path: string | null;
  illustration: null | { image: string; size: string; title: string; content?: string };
  favicon: string;
  /** `confirmation_message`: a manual job's `manual_confirmation`, asked before it is run (null when it has none) */
  action?: { icon: string; title: string; path: string; method: 'post'; button_title: string; confirmation_message?: string | null };
}

interface Core {
  icon: string;
  text: string;
  label: string;
  group: string;
  favicon: string;
}

const CORE: Record<Status, Core> = {
  created: { icon: 'status_created', text: 'created', label: 'created', group: 'created', favicon: 'favicon_status_created' },
  waiting_for_resource: { icon: 'status_pending', text: 'waiting', label: 'waiting for resource', group: 'waiting-for-resource', favicon: 'favicon_status_pending' },
  preparing: { icon: 'status_preparing', text: 'preparing', label: 'preparing', group: 'preparing', favicon: 'favicon_status_preparing' },
  pending: { icon: 'status_pending', text: 'pending', label: 'pending', group: 'pending', favicon: 'favicon_status_pending' },
  running: { icon: 'status_running', text: 'running', label: 'running', group: 'running', favicon: 'favicon_status_running' },
  success: { icon: 'status_success', text: 'passed', label: 'passed', group: 'success', favicon: 'favicon_status_success' },
  failed: { icon: 'status_failed', text: 'failed', label: 'failed', group: 'failed', favicon: 'favicon_status_failed' },
  canceling: { icon: 'status_canceled', text: 'canceling', label: 'canceling', group: 'canceling', favicon: 'favicon_status_canceled' },
  canceled: { icon: 'status_canceled', text: 'canceled', label: 'canceled', group: 'canceled', favicon: 'favicon_status_canceled' },
  skipped: { icon: 'status_skipped', text: 'skipped', label: 'skipped', group: 'skipped', favicon: 'favicon_status_skipped' },
  manual: { icon: 'status_manual', text: 'manual', label: 'manual action', group: 'manual', favicon: 'favicon_status_manual' },
  scheduled: { icon: 'status_scheduled', text: 'scheduled', label: 'scheduled', group: 'scheduled', favicon: 'favicon_status_scheduled' },
};

const favicon = (name: string) => `/assets/ci_favicons/${name}.png`;

/** A pipeline's detailed status: a passed pipeline with allowed failures is "warning", a manual one "blocked", a scheduled one "delayed". */
export function pipelineDetailedStatus(pipeline: { status: Status; warnings: boolean }, detailsPath: string): DetailedStatus {
  let core = CORE[pipeline.status];
  if (pipeline.status === 'success' && pipeline.warnings) {
    core = { icon: 'status_warning', text: 'warning', label: 'passed with warnings', group: 'success-with-warnings', favicon: 'favicon_status_warning' };
  } else if (pipeline.status === 'manual') {
    core = { icon: 'status_manual', text: 'blocked', label: 'waiting for manual action', group: 'manual', favicon: 'favicon_status_manual' };
  } else if (pipeline.status === 'scheduled') {
    core = { icon: 'status_scheduled', text: 'delayed', label: 'waiting for delayed job', group: 'scheduled', favicon: 'favicon_status_scheduled' };
  }
  return { ...core, tooltip: core.label, has_details: true, details_path: detailsPath, illustration: null, favicon: favicon(core.favicon) };
}

const humanize = (reason: string) => reason.replace(/_/g, ' ');

export interface JobStatusFacts {
  status: Status;
  allowFailure: boolean;
  failureReason: string | null;
  when: string;
  retried: boolean;
  type: 'build' | 'bridge' | 'generic';
  /** may the viewer retry, play or cancel it (update_build on its ref)? */
  canUpdate: boolean;
  /** the job's `manual_confirmation` */
  manualConfirmation?: string | null;
  /** does it stop an environment (`environment: {action: stop}`)? GitLab offers Stop instead of Run */
  stopsEnvironment?: boolean;
}

/** GitLab's manual_confirmation_message: the `manual_confirmation` of a `when: manual` job, else null. */
export function manualConfirmationMessage(job: { when: string; options: Record<string, unknown> }): string | null {
  const message = job.options.manual_confirmation;
  return job.when === 'manual' && typeof message === 'string' ? message : null;
}

/** GitLab's stops_environment?: the job has `environment` with `action: stop`. */
export function stopsEnvironment(job: { options: Record<string, unknown> }): boolean {
  const environment = job.options.environment;
  return typeof environment === 'object' && environment !== null && (environment as Record<string, unknown>).action === 'stop';
}

/** A job's detailed status with its action, as the job entity and the pipeline graph show it. */
export function jobDetailedStatus(job: JobStatusFacts, paths: { details: string; retry: string; play: string; cancel: string; unschedule?: string }): DetailedStatus {
  let core = CORE[job.status];
  if (job.status === 'failed' && job.allowFailure) {
    core = { icon: 'status_warning', text: 'failed', label: 'failed (allowed to fail)', group: 'failed-with-warnings', favicon: 'favicon_status_failed' };
  } else if (job.status === 'manual') {
    core = { ...core, label: job.stopsEnvironment ? 'manual stop action' : 'manual play action' };
  } else if (job.status === 'scheduled') {
    core = { ...core, label: 'delayed manual action' };
  }
  let tooltip = core.label;
  if (job.status === 'failed' && job.failureReason) tooltip = `${core.label} - (${humanize(job.failureReason)})`;
  if (job.retried) tooltip = `${tooltip} (retried)`;
  const detailed: DetailedStatus = { ...core, tooltip, has_details: job.type === 'build', details_path: job.type === 'build' ? paths.details : null, illustration: null, favicon: favicon(core.favicon) };
  if (!job.canUpdate || job.retried) return detailed;
  if (job.status === 'scheduled') {
    // GitLab's Build::Unschedule comes before Build::Play: a delayed job's action is to unschedule it
    // (it becomes a manual job); running it at once is the job page's and the jobs list's own button.
    detailed.action = { icon: 'time-out', title: 'Unschedule', path: paths.unschedule ?? `${paths.details}/unschedule`, method: 'post', button_title: 'Unschedule job' };
  } else if (job.status === 'manual' && job.stopsEnvironment) {
    // GitLab's Build::Stop: a manual job that stops an environment is played as "Stop"
    detailed.action = { icon: 'stop', title: 'Stop', path: paths.play, method: 'post', button_title: 'Stop this environment' };
  } else if (job.status === 'manual') {
    detailed.action = { icon: 'play', title: 'Run', path: paths.play, method: 'post', button_title: 'Run job', confirmation_message: job.manualConfirmation ?? null };
  } else if (job.status === 'pending' || job.status === 'running' || job.status === 'created' || job.status === 'preparing' || job.status === 'waiting_for_resource') {
    detailed.action = { icon: 'cancel', title: 'Cancel', path: paths.cancel, method: 'post', button_title: 'Cancel this job' };
  } else if (job.status === 'success' || job.status === 'failed' || job.status === 'canceled') {
    detailed.action = { icon: 'retry', title: 'Run again', path: paths.retry, method: 'post', button_title: 'Run this job again' };
  }
  return detailed;
}
