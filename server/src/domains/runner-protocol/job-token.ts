import { randomBytes } from 'node:crypto';

/** GitLab's prefix of CI job tokens (CI_JOB_TOKEN) since 17.x. */
export const JOB_TOKEN_PREFIX = 'glcbt-';

/** The user name a job token is presented with over git HTTP and to the container registry. */
export const JOB_TOKEN_USERNAME = 'gitlab-ci-token';

/** A new job token: the prefix and 20 random bytes in base64url. Only its digest is stored. */
export function generateJobToken(): string {
  return `${JOB_TOKEN_PREFIX}${randomBytes(20).toString('base64url')}`;
}

/** Statuses in which a job's token authenticates: while a runner is working on it (GitLab's job token lives while the job runs). */
export const TOKEN_LIVE_STATUSES: readonly string[] = ['running', 'canceling'];

export function isJobTokenLive(status: string): boolean {
  return TOKEN_LIVE_STATUSES.includes(status);
}
