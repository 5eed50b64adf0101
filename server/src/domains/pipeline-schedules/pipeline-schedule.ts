/** A pipeline schedule as stored (GitLab's Ci::PipelineSchedule) and its variables (Ci::PipelineScheduleVariable). */
export interface PipelineScheduleRow {
  id: number;
  project_id: number;
  description: string;
  /** in full, as GitLab stores it: `refs/heads/main`, `refs/tags/v1` */
  ref: string;
  cron: string;
  cron_timezone: string;
  next_run_at: Date | null;
  active: boolean;
  owner_id: number | null;
  last_skip_reason: string | null;
  last_skipped_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ScheduleVariable {
  key: string;
  value: string;
  variable_type: 'env_var' | 'file';
}
