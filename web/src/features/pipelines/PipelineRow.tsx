import { Link as RouterLink } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { TimeAgo } from '../../components/TimeAgo';
import { urls } from '../../lib/routes';
import { pipelineJobsQuery, pipelineQuery, type PipelineBasic, type PipelineWithJobs } from './api';
import { formatDuration } from './format';
import { PipelineMiniGraph } from './PipelineMiniGraph';
import { fallbackStatus, StatusBadge } from './StatusBadge';
import styles from './Pipelines.module.css';

/**
 * One row of the pipelines list. GitLab's API list answers PipelineBasic, so a row given only that
 * (the merge request's Pipelines tab) reads the pipeline (triggerer, duration, detailed status) and
 * its jobs (the stage badges) itself; the project's list gives each row both (`details`).
 */
export function PipelineRow({ projectId, fullPath, basic, details }: { projectId: number; fullPath: string; basic: PipelineBasic; details?: PipelineWithJobs }) {
  const read = useQuery({ ...pipelineQuery(projectId, basic.id), enabled: details === undefined });
  // The row reads the jobs for its stages once, and again whenever the pipeline changes; only an
  // open stage dropdown reads them on its own (GitLab's mini graph polls jobs only then).
  const readJobs = useQuery({ ...pipelineJobsQuery(projectId, basic.id, false), enabled: details === undefined });
  const pipeline = details ?? read.data;
  const jobs = details?.jobs ?? readJobs.data;
  const version = read.data ? `${read.data.status} ${read.data.updated_at}` : null;
  const refetchJobs = readJobs.refetch;
  useEffect(() => {
    if (version !== null) void refetchJobs();
  }, [version, refetchJobs]);
  const status = pipeline?.detailed_status ?? fallbackStatus(basic.status);
  const mergeRequestRef = /^refs\/merge-requests\/(\d+)\/(?:head|merge|train)$/.exec(basic.ref);
  const mergeRequestIid = mergeRequestRef ? Number(mergeRequestRef[1]) : null;
  return (
    <tr>
      <td>
        <div className={styles.cellStack}>
          <StatusBadge status={status} />
          <span className={styles.muted}>{formatDuration(pipeline?.duration)}</span>
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
      <td className={styles.muted}>{pipeline?.user ? pipeline.user.name : '—'}</td>
      <td className={styles.muted}>
        <TimeAgo date={basic.created_at} />
      </td>
      <td>
        {jobs ? <PipelineMiniGraph projectId={projectId} fullPath={fullPath} pipelineId={basic.id} jobs={jobs} /> : null}
      </td>
    </tr>
  );
}
