import { ArrowUpIcon } from '@primer/octicons-react';
import { AnchoredOverlay, Flash, Spinner, TextInput } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { urls } from '../../lib/routes';
import { pipelineJobsQuery, type Job, type PipelineBasic } from './api';
import { stageStatus, statusText } from './format';
import { JobActionButton } from './JobActionButton';
import { DOWNSTREAM_JOBS_ERROR, downstreamShown, isBridge, MERGE_TRAIN_FOOTER, STAGE_JOBS_ERROR, STAGE_SEARCH_THRESHOLD, stageDropdownJobs } from './mini-graph';
import { groupByStage } from './PipelineGraph';
import { fallbackStatus, StatusIcon } from './StatusBadge';
import styles from './PipelineMiniGraph.module.css';

/** A pipeline linked from this one (GitLab's `upstream` / a trigger job's downstream pipeline). */
export interface LinkedPipeline extends Pick<PipelineBasic, 'id' | 'status' | 'project_id' | 'web_url'> {
  /** the pipeline's project path, for the link; its `web_url` is used when absent */
  fullPath?: string;
}

/**
 * GitLab's pipeline mini graph: the upstream pipeline's icon, one dropdown per stage listing its
 * jobs (failed first, a search box above 12 jobs, each job's action), and dropdowns for at most
 * three downstream pipelines with a "+N" counter linking to the pipeline page. The stages' jobs
 * are read again only while a dropdown is open.
 */
export function PipelineMiniGraph({
  projectId,
  fullPath,
  pipelineId,
  jobs,
  upstream,
  mergeTrain = false,
}: {
  projectId: number;
  fullPath: string;
  pipelineId: number;
  /** every job of the pipeline, trigger jobs included (as the pipeline's jobs query answers) */
  jobs: Job[];
  upstream?: LinkedPipeline | null;
  /** a merge train's pipeline: its stages say that their jobs cannot be retried */
  mergeTrain?: boolean;
}) {
  const { shown, more } = downstreamShown(jobs.filter(isBridge));
  return (
    <span className={styles.graph} role="group" aria-label="Pipeline mini graph">
      {upstream ? (
        <>
          <RouterLink to={pathOf(upstream.web_url)} className={styles.linked} aria-label={`Upstream pipeline #${upstream.id}: ${statusText(upstream.status)}`} title={`Upstream #${upstream.id}`}>
            <ArrowUpIcon size={12} aria-hidden="true" />
            <StatusIcon status={fallbackStatus(upstream.status)} size={16} />
          </RouterLink>
          <span className={styles.connector} aria-hidden="true" />
        </>
      ) : null}
      {groupByStage(jobs).map((stage) => (
        <StageDropdown key={stage.name} projectId={projectId} fullPath={fullPath} pipelineId={pipelineId} stage={stage.name} jobs={stage.jobs} mergeTrain={mergeTrain} />
      ))}
      {shown.length > 0 ? <span className={styles.connector} aria-hidden="true" /> : null}
      {shown.map((pipeline) => (
        <DownstreamDropdown key={pipeline.id} pipeline={pipeline} />
      ))}
      {more > 0 ? (
        <RouterLink to={urls.pipeline(fullPath, pipelineId)} className={styles.more} aria-label={`${more} more downstream pipelines`}>
          +{more}
        </RouterLink>
      ) : null}
    </span>
  );
}

/** A status button that opens its dropdown (click, Enter, Space or the down arrow); the dropdown mounts only while open. */
function StatusDropdown({ status, label, children }: { status: string; label: string; children: () => ReactNode }) {
  const [open, setOpen] = useState(false);
  const anchorRef = useRef<HTMLButtonElement>(null);
  return (
    <AnchoredOverlay
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      anchorRef={anchorRef}
      renderAnchor={(props) => (
        <button {...props} ref={anchorRef} type="button" className={styles.stageButton} aria-label={label} title={label}>
          <StatusIcon status={fallbackStatus(status)} size={20} />
        </button>
      )}
      overlayProps={{ role: 'dialog', 'aria-label': label }}
      focusZoneSettings={{ disabled: true }}
    >
      {open ? <div className={styles.dropdown}>{children()}</div> : null}
    </AnchoredOverlay>
  );
}

function StageDropdown({ projectId, fullPath, pipelineId, stage, jobs, mergeTrain }: { projectId: number; fullPath: string; pipelineId: number; stage: string; jobs: Job[]; mergeTrain: boolean }) {
  const status = stageStatus(jobs);
  return (
    <StatusDropdown status={status} label={`Stage ${stage}: ${statusText(status)}`}>
      {() => <StageJobs projectId={projectId} fullPath={fullPath} pipelineId={pipelineId} stage={stage} initial={jobs} mergeTrain={mergeTrain} />}
    </StatusDropdown>
  );
}

/** The open dropdown of a stage: its jobs, read again every few seconds while it stays open. */
function StageJobs({ projectId, fullPath, pipelineId, stage, initial, mergeTrain }: { projectId: number; fullPath: string; pipelineId: number; stage: string; initial: Job[]; mergeTrain: boolean }) {
  const jobs = useQuery(pipelineJobsQuery(projectId, pipelineId, true));
  const stageJobs = jobs.data ? jobs.data.filter((job) => job.stage === stage) : initial;
  return (
    <JobList
      projectId={projectId}
      fullPath={fullPath}
      title={stage}
      jobs={stageJobs}
      error={jobs.isError ? STAGE_JOBS_ERROR : null}
      footer={mergeTrain ? MERGE_TRAIN_FOOTER : null}
    />
  );
}

function DownstreamDropdown({ pipeline }: { pipeline: LinkedPipeline }) {
  return (
    <StatusDropdown status={pipeline.status} label={`Downstream pipeline #${pipeline.id}: ${statusText(pipeline.status)}`}>
      {() => <DownstreamJobs pipeline={pipeline} />}
    </StatusDropdown>
  );
}

function DownstreamJobs({ pipeline }: { pipeline: LinkedPipeline }) {
  const jobs = useQuery(pipelineJobsQuery(pipeline.project_id, pipeline.id, true));
  const fullPath = pipeline.fullPath ?? projectPathOf(pipeline.web_url);
  return (
    <>
      <RouterLink to={pathOf(pipeline.web_url)} className={styles.dropdownTitle}>
        Pipeline #{pipeline.id}
      </RouterLink>
      {jobs.isPending ? (
        <Spinner size="small" aria-label="Loading the jobs" />
      ) : (
        <JobList projectId={pipeline.project_id} fullPath={fullPath} jobs={jobs.data ?? []} error={jobs.isError ? DOWNSTREAM_JOBS_ERROR : null} footer={null} />
      )}
    </>
  );
}

/** The path of a `web_url` on this server, for an in-app link. */
const pathOf = (webUrl: string) => new URL(webUrl, window.location.origin).pathname;

/** The project path in a pipeline's `web_url` (`…/<group>/<project>/-/pipelines/<id>`). */
function projectPathOf(webUrl: string): string {
  const path = pathOf(webUrl);
  return decodeURIComponent(path.slice(1, path.indexOf('/-/')));
}

function JobList({ projectId, fullPath, title, jobs, error, footer }: { projectId: number; fullPath: string; title?: string; jobs: Job[]; error: string | null; footer: string | null }) {
  const [search, setSearch] = useState('');
  const [actionError, setActionError] = useState<string | null>(null);
  const searchable = jobs.length > STAGE_SEARCH_THRESHOLD;
  const listed = stageDropdownJobs(jobs, searchable ? search : '');
  return (
    <>
      {title ? <div className={styles.dropdownTitle}>{title}</div> : null}
      {error || actionError ? (
        <Flash variant="danger" role="alert" className={styles.flash}>
          {error ?? actionError}
        </Flash>
      ) : null}
      {searchable ? (
        <TextInput aria-label="Search jobs" placeholder="Search jobs" value={search} onChange={(event) => setSearch(event.target.value)} size="small" block className={styles.search} />
      ) : null}
      <ul className={styles.jobs} aria-label={title ? `Jobs of stage ${title}` : 'Jobs'}>
        {listed.map((job) => (
          <li key={job.id} className={styles.job}>
            <StatusIcon status={job.detailed_status ?? fallbackStatus(job.status)} size={16} />
            {job.downstream_pipeline ? (
              <RouterLink to={pathOf(job.downstream_pipeline.web_url)} className={styles.jobName}>
                {job.name}
              </RouterLink>
            ) : (
              <RouterLink to={urls.job(fullPath, job.id)} className={styles.jobName}>
                {job.name}
              </RouterLink>
            )}
            <JobActionButton projectId={projectId} job={job} onError={setActionError} />
          </li>
        ))}
        {listed.length === 0 ? <li className={styles.none}>No jobs match.</li> : null}
      </ul>
      {footer ? <div className={styles.footer}>{footer}</div> : null}
    </>
  );
}
