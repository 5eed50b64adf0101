import { Flash, Heading, Stack } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { NotFoundPage } from '../../app/NotFoundPage';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { TimeAgo } from '../../components/TimeAgo';
import { API_PREFIX } from '../../lib/api-client';
import type { Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { DEVELOPER } from '../../lib/permissions';
import { userProjectLevel, useOptionalUser } from '../session';
import { isFinished, jobQuery } from './api';
import { JobArtifacts } from './JobArtifacts';
import { JOB_UPDATED, jobGid, useCoalesced, useLiveUpdates } from './live';
import { useJobTrace } from './useJobTrace';
import { failureMessage, formatDuration } from './format';
import { JobActionButton, RunDelayedJobButton } from './JobActionButton';
import { JobLog } from './JobLog';
import { fallbackStatus, StatusBadge } from './StatusBadge';
import styles from './Pipelines.module.css';

/**
 * `/<project>/-/jobs/:id`: the job's status, name, stage, pipeline, duration and runner, its action
 * (Run, Run again, Cancel), its artifacts and its log. The job is read again whenever
 * `ciJobStatusUpdated` says it moved, the log whenever `ciJobTraceUpdated` says it grew (only the
 * new bytes); both are polled instead while the live channel is down (live.ts).
 */
export function JobPage({ project, id }: { project: Project; id: number }) {
  const fullPath = project.path_with_namespace;
  const user = useOptionalUser();
  const [live, setLive] = useState(false);
  const job = useQuery(jobQuery(project.id, id, live));
  const refetchJob = useCoalesced(() => job.refetch());
  const channel = useLiveUpdates(JOB_UPDATED, { jobId: jobGid(id) }, refetchJob);
  useEffect(() => setLive(channel === 'live'), [channel]);
  const running = job.data !== undefined && !isFinished(job.data.status);
  const trace = useJobTrace(project.id, id, running);
  const [error, setError] = useState<string | null>(null);

  if (job.isPending) return <PageLoading label="Loading job…" />;
  if (job.isError) {
    if ((job.error as { status?: number }).status === 404) return <NotFoundPage />;
    return <PageError title="There was an error fetching the job." error={job.error} onRetry={() => void job.refetch()} />;
  }
  const data = job.data;
  return (
    <Stack gap="normal">
      <Stack direction="horizontal" justify="space-between" align="start" wrap="wrap">
        <Stack gap="condensed">
          <div className={styles.headerMeta}>
            <StatusBadge status={data.detailed_status ?? fallbackStatus(data.status)} />
            <Heading as="h2" style={{ fontSize: 20 }}>
              {data.name}
            </Heading>
          </div>
          <div className={styles.headerMeta}>
            <span>
              Job #{data.id} in stage <strong>{data.stage}</strong> of pipeline{' '}
              <RouterLink to={urls.pipeline(fullPath, data.pipeline.id)}>#{data.pipeline.id}</RouterLink>
            </span>
            <span className={styles.muted}>
              created <TimeAgo date={data.created_at} />
            </span>
          </div>
          <div className={styles.headerMeta}>
            <span className={styles.muted}>Duration {formatDuration(data.duration)}</span>
            <span className={styles.muted}>Runner {data.runner ? data.runner.description || `#${data.runner.id}` : '—'}</span>
            <span className={styles.muted}>
              Ref <span className={styles.mono}>{data.ref}</span>
            </span>
          </div>
        </Stack>
        <Stack direction="horizontal" gap="condensed">
          <RunDelayedJobButton projectId={project.id} job={data} onError={setError} labelled />
          <JobActionButton projectId={project.id} job={data} onError={setError} labelled />
        </Stack>
      </Stack>
      {error ? (
        <Flash variant="danger" role="alert">
          {error}
        </Flash>
      ) : null}
      {data.status === 'failed' ? <Flash variant={data.allow_failure ? 'warning' : 'danger'}>{failureMessage(data.failure_reason)}</Flash> : null}
      <JobArtifacts projectId={project.id} fullPath={fullPath} job={data} canUpdate={user !== null && userProjectLevel(project, user) >= DEVELOPER} />
      {trace.error && trace.text === null ? (
        <PageError title="The job log could not be loaded." error={trace.error} onRetry={trace.retry} />
      ) : trace.loading ? (
        <PageLoading label="Loading log…" />
      ) : (
        <JobLog log={trace.text} rawUrl={`${API_PREFIX}/projects/${project.id}/jobs/${id}/trace`} />
      )}
    </Stack>
  );
}
