/**
 * `POST /projects/:id/jobs/:job_id/erase` (GitLab's Ci::BuildEraseService): a finished job's log
 * and artifacts are removed and the job is marked erased. GitLab's erase_build: Developers may
 * erase the jobs they ran, Maintainers any; a job still running, or with nothing left to erase,
 * is "403 Forbidden - Job is not erasable!".
 */
import { AccessLevel } from '@tributary/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { ForbiddenError } from '../../platform/errors.js';
import type { JobLogs } from '../job-logs/job-logs.service.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { User } from '../users/user.js';
import type { JobArtifacts } from './job-artifacts.service.js';
import type { RunnerJobsRepository } from './runner-jobs.repository.js';

const COMPLETE = ['success', 'failed', 'canceled', 'skipped'];

export function createJobErase(deps: {
  pipelines: Pick<PipelinesService, 'job'>;
  authorizer: Pick<Authorizer, 'authorize' | 'accessLevel'>;
  artifacts: Pick<JobArtifacts, 'describe' | 'removeAllOfJob'>;
  jobLogs: Pick<JobLogs, 'size' | 'remove'>;
  jobs: Pick<RunnerJobsRepository, 'markErased'>;
}) {
  return {
    async erase(actor: Actor & { user: User }, projectIdOrPath: string | number, jobId: number) {
      const { job, project } = await deps.pipelines.job(actor, projectIdOrPath, jobId);
      await deps.authorizer.authorize(actor, 'update_pipeline', { project });
      const maintainer = actor.user.is_admin || (await deps.authorizer.accessLevel(actor, { project })) >= AccessLevel.Maintainer;
      if (!maintainer && job.user_id !== actor.user.id) throw new ForbiddenError();
      const hasArtifacts = ((await deps.artifacts.describe([job.id])).get(job.id) ?? []).length > 0;
      const hasTrace = (await deps.jobLogs.size(job.id)) > 0;
      if (job.type !== 'build' || !COMPLETE.includes(job.status) || (!hasArtifacts && !hasTrace)) throw new ForbiddenError('403 Forbidden - Job is not erasable!');
      await deps.artifacts.removeAllOfJob(job.id);
      await deps.jobLogs.remove(job.id);
      await deps.jobs.markErased(job.id);
      return deps.pipelines.job(actor, projectIdOrPath, jobId);
    },
  };
}

export type JobErase = ReturnType<typeof createJobErase>;
