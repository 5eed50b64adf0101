import { AnchoredOverlay, CounterLabel } from '@primer/react';
import { useId, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { urls } from '../../lib/routes';
import type { Job } from './api';
import { DelayedCountdown } from './DelayedCountdown';
import { JobActionButton } from './JobActionButton';
import type { JobGroupView } from './job-groups';
import { fallbackStatus, StatusIcon } from './StatusBadge';
import styles from './Pipelines.module.css';
import graphStyles from './PipelineGraph.module.css';

interface CardProps {
  projectId: number;
  fullPath: string;
  group: JobGroupView;
  /** the names of the jobs the card's jobs need (its accessible description) */
  needs?: readonly string[];
  highlighted?: boolean;
  onError: (message: string) => void;
  onHover?: (card: string | null) => void;
}

/** "Needs: build, lint", read after a card's name by assistive technology (the lines are only drawn). */
function NeedsDescription({ id, needs }: { id: string; needs: readonly string[] | undefined }) {
  if (!needs || needs.length === 0) return null;
  return (
    <span id={id} className="visually-hidden">
      Needs: {needs.join(', ')}
    </span>
  );
}

/**
 * One card of the pipeline graph. A lone job: its status, its name (a link to the job), a
 * delayed job's countdown and its action. A group of parallel jobs (GitLab's job group): the group's composite status, its name
 * and the count of its jobs, opening a dropdown that lists each job with its status and action.
 */
export function JobGroupCard({ projectId, fullPath, group, needs, highlighted = false, onError, onHover }: CardProps) {
  const descriptionId = useId();
  const describedBy = needs && needs.length > 0 ? descriptionId : undefined;
  const className = `${styles.jobCard} ${highlighted ? graphStyles.cardHighlighted : ''}`;
  const hover = onHover ? { onMouseEnter: () => onHover(group.name), onMouseLeave: () => onHover(null), onFocus: () => onHover(group.name), onBlur: () => onHover(null) } : {};
  if (group.jobs.length === 1) {
    const job = group.jobs[0]!;
    return (
      <li className={className} data-job={group.name} data-highlighted={highlighted || undefined} {...hover}>
        <StatusIcon status={group.status} />
        <span className={styles.jobName}>
          {job.detailed_status?.has_details ? (
            <RouterLink to={urls.job(fullPath, job.id)} aria-describedby={describedBy}>
              {job.name}
            </RouterLink>
          ) : (
            <span aria-describedby={describedBy}>{job.name}</span>
          )}
        </span>
        <NeedsDescription id={descriptionId} needs={needs} />
        {job.status === 'scheduled' ? <DelayedCountdown fullPath={fullPath} jobId={job.id} name={job.name} /> : null}
        <JobActionButton projectId={projectId} job={job} onError={onError} />
      </li>
    );
  }
  return (
    <li className={className} data-job={group.name} data-highlighted={highlighted || undefined} {...hover}>
      <GroupDropdown projectId={projectId} fullPath={fullPath} group={group} describedBy={describedBy} onError={onError} />
      <NeedsDescription id={descriptionId} needs={needs} />
    </li>
  );
}

/** GitLab's job group dropdown: the toggle reads "<name> - <status>" with the count; the menu mounts only while open. */
function GroupDropdown({ projectId, fullPath, group, describedBy, onError }: { projectId: number; fullPath: string; group: JobGroupView; describedBy: string | undefined; onError: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const anchorRef = useRef<HTMLButtonElement>(null);
  const tooltip = `${group.name} - ${group.status.label}`;
  return (
    <AnchoredOverlay
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      anchorRef={anchorRef}
      side="outside-right"
      renderAnchor={(props) => (
        <button {...props} ref={anchorRef} type="button" className={graphStyles.groupToggle} aria-label={`${group.name}, ${group.jobs.length} jobs: ${group.status.label}`} aria-describedby={describedBy} title={tooltip}>
          <StatusIcon status={group.status} />
          <span className={styles.jobName}>{group.name}</span>
          <CounterLabel aria-hidden="true">{group.jobs.length}</CounterLabel>
        </button>
      )}
      overlayProps={{ role: 'dialog', 'aria-label': `Jobs of ${group.name}` }}
      focusZoneSettings={{ disabled: true }}
    >
      {open ? (
        <ul className={graphStyles.dropdown} aria-label={`Jobs of ${group.name}`}>
          {group.jobs.map((job) => (
            <GroupJob key={job.id} projectId={projectId} fullPath={fullPath} job={job} onError={onError} />
          ))}
        </ul>
      ) : null}
    </AnchoredOverlay>
  );
}

function GroupJob({ projectId, fullPath, job, onError }: { projectId: number; fullPath: string; job: Job; onError: (message: string) => void }) {
  const status = job.detailed_status;
  return (
    <li className={graphStyles.dropdownJob} data-job={job.name}>
      <StatusIcon status={status ?? fallbackStatus(job.status)} />
      <span className={styles.jobName}>{status?.has_details ? <RouterLink to={urls.job(fullPath, job.id)}>{job.name}</RouterLink> : job.name}</span>
      {job.status === 'scheduled' ? <DelayedCountdown fullPath={fullPath} jobId={job.id} name={job.name} /> : null}
      <JobActionButton projectId={projectId} job={job} onError={onError} />
    </li>
  );
}
