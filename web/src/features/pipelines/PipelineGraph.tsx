import { Flash } from '@primer/react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { urls } from '../../lib/routes';
import type { CommitStatus, Job, PipelineRelations } from './api';
import { LinkedPipelines } from './LinkedPipelines';
import { JobActionButton } from './JobActionButton';
import { fallbackStatus, StatusIcon } from './StatusBadge';
import styles from './Pipelines.module.css';

export interface Stage {
  name: string;
  jobs: Job[];
}

/** Jobs grouped by stage, in the order the stages first appear (the jobs come sorted by id, so by stage order). */
export function groupByStage(jobs: Job[]): Stage[] {
  const stages = new Map<string, Job[]>();
  for (const job of jobs) {
    const list = stages.get(job.stage) ?? [];
    list.push(job);
    stages.set(job.stage, list);
  }
  return [...stages].map(([name, list]) => ({ name, jobs: list }));
}

/**
 * The pipeline graph: the upstream pipeline, one column per stage with one card per job (its
 * status and its action), the `external` stage of the statuses outside CI systems posted (each
 * linking to its target_url), then the downstream pipelines.
 */
export function PipelineGraph({ projectId, fullPath, jobs, external = [], relations }: { projectId: number; fullPath: string; jobs: Job[]; external?: CommitStatus[]; relations?: PipelineRelations }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      {error ? (
        <Flash variant="danger" role="alert">
          {error}
        </Flash>
      ) : null}
      <div className={styles.graph} aria-label="Pipeline graph" role="region">
        <LinkedPipelines kind="Upstream" projectId={projectId} pipelines={relations?.triggered_by ? [relations.triggered_by] : []} />
        {groupByStage(jobs).map((stage) => (
          <section key={stage.name} className={styles.stage} aria-label={`Stage ${stage.name}`}>
            <h3 className={styles.stageName}>{stage.name}</h3>
            <ul aria-label={`Jobs of stage ${stage.name}`} style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 8 }}>
              {stage.jobs.map((job) => (
                <li key={job.id} className={styles.jobCard} data-job={job.name}>
                  <StatusIcon status={job.detailed_status ?? fallbackStatus(job.status)} />
                  <span className={styles.jobName}>
                    {job.detailed_status?.has_details ? <RouterLink to={urls.job(fullPath, job.id)}>{job.name}</RouterLink> : job.name}
                  </span>
                  <JobActionButton projectId={projectId} job={job} onError={setError} />
                </li>
              ))}
            </ul>
          </section>
        ))}
        {external.length > 0 ? (
          <section className={styles.stage} aria-label="Stage external">
            <h3 className={styles.stageName}>external</h3>
            <ul aria-label="Jobs of stage external" style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 8 }}>
              {external.map((status) => (
                <li key={status.id} className={styles.jobCard} data-job={status.name} title={status.description ?? undefined}>
                  <StatusIcon status={fallbackStatus(status.status)} />
                  <span className={styles.jobName}>{status.target_url ? <a href={status.target_url} rel="noopener noreferrer">{status.name}</a> : status.name}</span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <LinkedPipelines kind="Downstream" projectId={projectId} pipelines={relations?.triggered ?? []} />
      </div>
    </>
  );
}
