/** Stored environments and deployments, as the repository returns them. */
import type { DeploymentStatus, EnvironmentState, Tier } from './environment-rules.js';

export interface EnvironmentRow {
  id: number;
  project_id: number;
  name: string;
  slug: string;
  external_url: string | null;
  state: EnvironmentState;
  tier: Tier;
  environment_type: string | null;
  auto_stop_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeploymentRow {
  id: number;
  project_id: number;
  environment_id: number;
  iid: number;
  job_id: number | null;
  ref: string;
  tag: boolean;
  sha: string;
  user_id: number | null;
  status: DeploymentStatus;
  on_stop: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}
