import { useState } from 'react';
import { Flash, VisuallyHidden } from '@primer/react';
import { Link as RouterLink } from 'react-router-dom';
import { TimeAgo } from '../../components/TimeAgo';
import { urls } from '../../lib/routes';
import type { Job } from './api';
import { formatDuration } from './format';
import { JobActionButton, RunDelayedJobButton } from './JobActionButton';
import { fallbackStatus, StatusBadge } from './StatusBadge';
import styles from './Pipelines.module.css';
import { DataTable } from '../../components/DataTable';

/** Jobs as a table: status, job (name and id), stage, pipeline (optional), duration, created, action. */
export function JobsTable({ projectId, fullPath, jobs, showPipeline = false, label = 'Jobs' }: { projectId: number; fullPath: string; jobs: Job[]; showPipeline?: boolean; label?: string }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      {error ? (
        <Flash variant="danger" role="alert">
          {error}
        </Flash>
      ) : null}
      <DataTable
        label={label}
        columns={[
          'Status',
          'Job',
          'Stage',
          showPipeline ? 'Pipeline' : null,
          'Duration',
          'Created',
          <VisuallyHidden>Actions</VisuallyHidden>,
        ]}
      >
        {jobs.map((job) => (
          <tr key={job.id}>
            <td>
              <StatusBadge status={job.detailed_status ?? fallbackStatus(job.status)} />
            </td>
            <td>
              <div className={styles.cellStack}>
                {job.detailed_status?.has_details ? <RouterLink to={urls.job(fullPath, job.id)}>{job.name}</RouterLink> : <span>{job.name}</span>}
                <span className={styles.muted}>#{job.id}</span>
              </div>
            </td>
            <td>{job.stage}</td>
            {showPipeline ? (
              <td>
                <RouterLink to={urls.pipeline(fullPath, job.pipeline.id)}>#{job.pipeline.id}</RouterLink>
              </td>
            ) : null}
            <td className={styles.muted}>{formatDuration(job.duration)}</td>
            <td className={styles.muted}>
              <TimeAgo date={job.created_at} />
            </td>
            <td>
              <RunDelayedJobButton projectId={projectId} job={job} onError={setError} />
              <JobActionButton projectId={projectId} job={job} onError={setError} />
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
