/**
 * GitLab's rules for an environment's derived attributes, computed from its name when it is
 * created: the slug (`CI_ENVIRONMENT_SLUG`), the tier guessed from the name, and the folder
 * (`environment_type`); and the deployment status a job's status maps to.
 */
import { createHash } from 'node:crypto';

export const ENVIRONMENT_STATES = ['available', 'stopping', 'stopped'] as const;
export type EnvironmentState = (typeof ENVIRONMENT_STATES)[number];
export const TIERS = ['production', 'staging', 'testing', 'development', 'other'] as const;
export type Tier = (typeof TIERS)[number];
export const DEPLOYMENT_STATUSES = ['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** The last 6 base-36 digits of the name's SHA-256 (hex) read as one number (GitLab's predictable suffix). */
function suffix(hexDigest: string): string {
  return BigInt(`0x${hexDigest}`).toString(36).slice(-6);
}

/**
 * GitLab's Gitlab::Slug::Environment: lower-case letters and digits, other characters `-`,
 * starting with a letter (`env-` prefixed otherwise), no repeated `-`; when that is longer
 * than 24 characters or differs from the name, its first 17 characters, `-` and a suffix derived
 * from the name's hash (so two names keep distinct slugs); otherwise without a trailing `-`.
 */
export function environmentSlug(name: string, hexDigest = createHash('sha256').update(name).digest('hex')): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-');
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`;
  slug = slug.replace(/-+/g, '-');
  if (slug.length > 24 || slug !== name) {
    const short = slug.slice(0, 17);
    return `${short.endsWith('-') ? short : `${short}-`}${suffix(hexDigest)}`;
  }
  return slug.replace(/-$/, '');
}

/** GitLab's Environment#guess_tier: the first family of words the name contains. */
export function guessTier(name: string): Tier {
  if (/(dev|review|trunk)/i.test(name)) return 'development';
  if (/(test|tst|int|ac(ce|)pt|qa|qc|control|quality)/i.test(name)) return 'testing';
  if (/(st(a|)g|mod(e|)l|pre|demo|non)/i.test(name)) return 'staging';
  if (/(pr(o|)d|live)/i.test(name)) return 'production';
  return 'other';
}

/** GitLab's environment_type: the first segment of a name with `/` (`review` for `review/x`), else null. */
export function environmentFolder(name: string): string | null {
  const parts = name.split('/');
  return parts.length > 1 ? parts[0]! : null;
}

/** GitLab's environment name format (the `.gitlab-ci.yml` compiler checks the same). */
export function validEnvironmentName(name: string): boolean {
  return name.length > 0 && name.length <= 255 && /^[a-zA-Z0-9 \-_/${}.]+$/.test(name) && !name.startsWith('/') && !name.endsWith('/');
}

/**
 * The deployment status a deploy job's status moves it to (GitLab's deployment state machine
 * follows its deployable: run, succeed, drop, cancel, skip, block), or null for no change.
 */
export function deploymentStatusFor(jobStatus: string): DeploymentStatus | null {
  switch (jobStatus) {
    case 'running':
      return 'running';
    case 'success':
      return 'success';
    case 'failed':
      return 'failed';
    case 'canceled':
      return 'canceled';
    case 'skipped':
      return 'skipped';
    case 'waiting_for_resource':
    case 'created':
    case 'pending':
    case 'manual':
    case 'scheduled':
    case 'preparing':
      return null;
    default:
      return null;
  }
}

/** A deployment that has ended (GitLab's finished statuses: success, failed, canceled). */
export function isFinishedDeployment(status: DeploymentStatus): boolean {
  return status === 'success' || status === 'failed' || status === 'canceled';
}
