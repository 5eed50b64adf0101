/** One environment a merge request reached, as GitLab's `ci_environments_status` answers it. */
export interface EnvironmentDeployment {
  id: number;
  name: string;
  status: 'created' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'blocked';
  url: string;
  stop_url?: string;
  retry_url?: string;
  external_url: string | null;
  external_url_formatted: string | null;
  deployed_at: string | null;
  deployed_at_formatted: string | null;
  details: { playable_build?: { play_path: string; retry_path: string } };
  deployment_approved: boolean | null;
  environment_available: boolean;
  changes: { path: string; external_url: string }[];
}

export type DisplayedDeploymentStatus = 'manual_deploy' | 'will_deploy' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'blocked';

/**
 * The status the widget shows (GitLab's computedDeploymentStatus): a created deployment is a
 * manual deploy when its job can be played, else one that will happen; a blocked deployment
 * that is approved and playable is a manual deploy too; any other status is shown as it is.
 */
export function displayedStatus(deployment: Pick<EnvironmentDeployment, 'status' | 'details' | 'deployment_approved'>): DisplayedDeploymentStatus {
  const playable = Boolean(deployment.details.playable_build?.play_path);
  if (deployment.status === 'created') return playable ? 'manual_deploy' : 'will_deploy';
  if (deployment.status === 'blocked' && deployment.deployment_approved && playable) return 'manual_deploy';
  return deployment.status;
}

/** The words before the environment's name, GitLab's; a blocked deployment has none (its icon says it). */
export const DEPLOYED_TEXT: Partial<Record<DisplayedDeploymentStatus, string>> = {
  manual_deploy: 'Can be manually deployed to',
  will_deploy: 'Will deploy to',
  running: 'Deploying to',
  success: 'Deployed to',
  failed: 'Failed to deploy to',
  canceled: 'Canceled deployment to',
  skipped: 'Skipped deployment to',
};

/** The list collapses above this many environments. */
export const DEPLOYMENTS_SHOWN = 3;

/** Deployments are read at once, then again after 30 s, growing fourfold up to 240 s (GitLab's widget constants). */
export const DEPLOYMENTS_POLLING = { startMs: 30_000, maxMs: 240_000, factor: 4 } as const;

/** The wait before the next read, after `reads` reads so far. */
export function deploymentsPollInterval(reads: number): number {
  const { startMs, maxMs, factor } = DEPLOYMENTS_POLLING;
  return Math.min(maxMs, startMs * factor ** Math.max(0, reads - 1));
}

/** "1 environment impacted." / "N environments impacted." */
export const impactedTitle = (count: number) => `${count} ${count === 1 ? 'environment' : 'environments'} impacted.`;

/** The action messages: the confirmation, the button, and GitLab's error strings. */
export const DEPLOYMENT_ACTIONS = {
  stop: {
    button: 'Stop environment',
    confirm: 'Are you sure you want to stop this environment?',
    error: 'Something went wrong while stopping this environment. Please try again.',
  },
  deploy: {
    button: 'Deploy',
    confirm: 'Are you sure you want to deploy this environment?',
    error: 'Something went wrong while deploying this environment. Please try again.',
  },
  redeploy: {
    button: 'Re-deploy',
    confirm: 'Are you sure you want to re-deploy this environment?',
    error: 'Something went wrong while deploying this environment. Please try again.',
  },
} as const;

export const DEPLOYMENTS_FETCH_ERROR = 'Something went wrong while fetching the environments for this merge request. Please try again.';
