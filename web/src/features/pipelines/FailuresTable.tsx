import { CheckCircleIcon } from '@primer/octicons-react';
import { Flash } from '@primer/react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { urls } from '../../lib/routes';
import type { Job } from './api';
import { failureMessage } from './format';
import { JobActionButton } from './JobActionButton';
import { StatusIcon, fallbackStatus } from './StatusBadge';
import { DataTable } from '../../components/DataTable';

/** The pipeline's Failures tab: its failed jobs with GitLab's columns name, stage, failure message, actions. */
export function FailuresTable({ projectId, fullPath, jobs }: { projectId: number; fullPath: string; jobs: Job[] }) {
  const [error, setError] = useState<string | null>(null);
  const failed = jobs.filter((job) => job.status === 'failed');
  if (failed.length === 0) return <EmptyState icon={CheckCircleIcon} title="No failed jobs" description="No job of this pipeline has failed." />;
  return (
    <>
      {error ? (
        <Flash variant="danger" role="alert">
          {error}
        </Flash>
      ) : null}
      <DataTable label="Failed jobs" columns={['Name', 'Stage', 'Failure', 'Actions']}>
        {failed.map((job) => (
          <tr key={job.id}>
            <td>
              <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
                <StatusIcon status={job.detailed_status ?? fallbackStatus(job.status)} />
                {job.detailed_status?.has_details ? <RouterLink to={urls.job(fullPath, job.id)}>{job.name}</RouterLink> : job.name}
              </span>
            </td>
            <td>{job.stage}</td>
            <td>{failureMessage(job.failure_reason)}</td>
            <td>
              <JobActionButton projectId={projectId} job={job} onError={setError} />
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
