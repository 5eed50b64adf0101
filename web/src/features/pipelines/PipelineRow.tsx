import { Link as RouterLink } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { TimeAgo } from '../../components/TimeAgo';
import { urls } from '../../lib/routes';
import { pipelineJobsQuery, pipelineQuery, type PipelineBasic } from './api';
import { formatDuration } from './format';
import { PipelineMiniGraph } from './PipelineMiniGraph';
import { fallbackStatus, StatusBadge } from './StatusBadge';
import styles from './Pipelines.module.css';

/**
 * One row of the pipelines list. GitLab's list answers PipelineBasic, so the row reads the pipeline
 * (triggerer, duration, detailed status) and its jobs (the stage badges) itself.
 */
export function PipelineRow({ projectId, fullPath, basic }: { projectId: number; fullPath: string; basic: PipelineBasic }) {
  const pipeline = useQuery(pipelineQuery(projectId, basic.id));
  // The row reads the jobs for its stages once, and again whenever the pipeline changes; only an
  // open stage dropdown reads them on its own (GitLab's mini graph polls jobs only then).
  const jobs = useQuery(pipelineJobsQuery(projectId, basic.id, false));
  const version = pipeline.data ? `${pipeline.data.status} ${pipeline.data.updated_at}` : null;
  const refetchJobs = jobs.refetch;
  useEffect(() => {
    if (version !== null) void refetchJobs();
  }, [version, refetchJobs]);
  const status = pipeline.data?.detailed_status ?? fallbackStatus(basic.status);
  const mergeRequestRef = /^refs\/merge-requests\/(\d+)\/(?:head|merge|train)$/.exec(basic.ref);
  const mergeRequestIid = mergeRequestRef ? Number(mergeRequestRef[1]) : null;
  return (
    <tr>
      <td>
        <div className={styles.cellStack}>
          <StatusBadge status={status} />
          <span className={styles.muted}>{formatDuration(pipeline.data?.duration)}</span>
        </div>
      </td>
      <td>
        <div className={styles.cellStack}>
          <RouterLink to={urls.pipeline(fullPath, basic.id)} aria-label={`Pipeline #${basic.id}`}>
            {basic.name || `#${basic.id}`}
          </RouterLink>
          <span className={styles.muted}>
            #{basic.id} · iid {basic.iid}
          </span>
        </div>
      </td>
      <td>
        <div className={styles.cellStack}>
          {mergeRequestIid !== null ? (
            // A merge request pipeline's ref is refs/merge-requests/:iid/…: it links to its merge request.
            <RouterLink to={urls.mergeRequest(fullPath, mergeRequestIid)} className={styles.mono}>
              !{mergeRequestIid}
            </RouterLink>
          ) : (
            <RouterLink to={urls.tree(fullPath, basic.ref)} className={styles.mono}>
              {basic.ref}
            </RouterLink>
          )}
          <RouterLink to={urls.commit(fullPath, basic.sha)} className={styles.mono}>
            {basic.sha.slice(0, 8)}
          </RouterLink>
        </div>
      </td>
      <td className={styles.muted}>{basic.source}</td>
      <td className={styles.muted}>{pipeline.data?.user ? pipeline.data.user.name : '—'}</td>
      <td className={styles.muted}>
        <TimeAgo date={basic.created_at} />
      </td>
      <td>
        {jobs.data ? <PipelineMiniGraph projectId={projectId} fullPath={fullPath} pipelineId={basic.id} jobs={jobs.data} /> : null}
      </td>
    </tr>
  );
}
