import { QuestionIcon, SkipIcon, XCircleFillIcon } from '@primer/octicons-react';
import { AnchoredOverlay, Button, IconButton, Link, Spinner } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { t } from '@tributary/contracts/i18n';
import type { WidgetHeadPipeline } from '@tributary/contracts/merge-widget';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { TimeAgo } from '../../components/TimeAgo';
import { urls } from '../../lib/routes';
import { PipelineMiniGraph, pipelineJobsQuery, PipelineStatusIcon, type PipelineDetailedStatus } from '../pipelines';
import { MSG } from './messages';
import { PipelineArtifacts } from './artifacts/PipelineArtifacts';
import styles from './MergeWidget.module.css';
import { eventTypeHelp, idOf, PIPELINE_DOCS, pipelineContainerState, shortSha } from './pipeline-rules';
import { RichMessage } from './RichMessage';
import branchName from '../../components/BranchName.module.css';

/** The pipeline's status as the pipelines area draws it (GitLab's ci-icon). */
function detailedStatusOf(pipeline: WidgetHeadPipeline): PipelineDetailedStatus {
  const { icon, text, label, group } = pipeline.detailedStatus;
  return { icon: icon ?? `status_${pipeline.status.toLowerCase()}`, text: text ?? '', label: label ?? '', group: group ?? '', tooltip: label ?? '', has_details: true, details_path: pipeline.path };
}

/** The help popover beside the event type ('What is a merged results pipeline?'). */
function EventTypeHelp({ eventTypeName }: { eventTypeName: string }) {
  const [open, setOpen] = useState(false);
  const help = eventTypeHelp(eventTypeName);
  if (!help) return null;
  return (
    <AnchoredOverlay
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      side="outside-bottom"
      overlayProps={{ role: 'dialog', 'aria-label': t(help.title) }}
      focusZoneSettings={{ disabled: true }}
      renderAnchor={(props) => <IconButton {...props} icon={QuestionIcon} size="small" variant="invisible" aria-label={t(help.title)} unsafeDisableTooltip />}
    >
      <div className={styles.helpPopover}>
        <strong>{t(help.title)}</strong>
        <p>{t(help.content)}</p>
      </div>
    </AnchoredOverlay>
  );
}

/** The stages of the pipeline as dropdowns, and its jobs' archives; its jobs are read again whenever the pipeline moves. */
function MiniGraph({ pipeline }: { pipeline: WidgetHeadPipeline }) {
  const projectId = pipeline.project ? idOf(pipeline.project.id) : null;
  const pipelineId = idOf(pipeline.id);
  const jobs = useQuery({ ...pipelineJobsQuery(projectId ?? 0, pipelineId, false), enabled: projectId !== null });
  // The widget hears the pipeline move (its status or a stage's): read the jobs again then.
  const moved = `${pipeline.status}:${pipeline.stages?.nodes.map((stage) => stage.status).join(',') ?? ''}`;
  const { refetch } = jobs;
  const seen = useRef(moved);
  useEffect(() => {
    if (seen.current === moved) return;
    seen.current = moved;
    void refetch();
  }, [moved, refetch]);
  if (projectId === null || !pipeline.project || !jobs.data) return null;
  return (
    <span className={styles.pipelineGraph}>
      <PipelineMiniGraph projectId={projectId} fullPath={pipeline.project.fullPath} pipelineId={pipelineId} jobs={jobs.data} mergeTrain={pipeline.mergeRequestEventType === 'MERGE_TRAIN'} />
      <PipelineArtifacts projectId={projectId} pipelineId={pipelineId} />
    </span>
  );
}

/**
 * The pipeline container above the merge area, and the post-merge one below a merged request
 * (GitLab's mr_widget_pipeline.vue): the pipeline's status, event type, id, mini graph, commit,
 * branch, finish time and coverage; or 'Checking pipeline status.' while the request has CI
 * but no pipeline yet; or the status error; or, after a retarget, the advice to run a new one.
 */
export function PipelineContainer({
  pipeline,
  hasCi,
  retargeted,
  branch,
  postMerge = false,
  onRunPipeline,
  runningPipeline = false,
  artifacts = null,
}: {
  pipeline: WidgetHeadPipeline | null;
  hasCi: boolean;
  retargeted: boolean;
  /** the branch shown ('on main'): the source branch, or the target branch after the merge */
  branch: string;
  postMerge?: boolean;
  onRunPipeline?: () => void;
  runningPipeline?: boolean;
  /** the pipeline's exposed artifacts (artifacts/ExposedArtifacts), under its details */
  artifacts?: ReactNode;
}) {
  const state = pipelineContainerState({ hasCi, pipeline, retargeted });
  if (state === null) return null;
  const label = postMerge ? 'Post-merge pipeline' : 'Pipeline';
  if (state === 'ciError') {
    return (
      <div className={styles.panel} role="group" aria-label={label}>
        <span className={`${styles.icon} ${styles.failed}`} aria-hidden="true">
          <XCircleFillIcon size={16} />
        </span>
        <div className={styles.panelBody}>
          <span>
            <RichMessage message={t(MSG.pipelineStatusError)} slots={{ link: <Link href={PIPELINE_DOCS.mrTroubleshooting}>{t(MSG.documentation)}</Link> }} />
          </span>
        </div>
      </div>
    );
  }
  if (state === 'retargeted') {
    return (
      <div className={styles.panel} role="group" aria-label={label}>
        <span className={`${styles.icon} ${styles.neutral}`} aria-hidden="true">
          <SkipIcon size={16} />
        </span>
        <div className={`${styles.panelBody} ${styles.muted}`}>{t(MSG.retargeted)}</div>
        {onRunPipeline ? (
          <Button size="small" variant="invisible" loading={runningPipeline} onClick={onRunPipeline}>
            {t(MSG.runPipeline)}
          </Button>
        ) : null}
      </div>
    );
  }
  if (state === 'checking' || !pipeline) {
    return (
      <div className={styles.panel} role="group" aria-label={label}>
        <span className={styles.icon}>
          <Spinner size="small" srText={null} />
        </span>
        <div className={styles.panelBody}>
          <span>
            {t(MSG.checkingPipeline)}{' '}
            <Link href={PIPELINE_DOCS.ciTroubleshooting} target="_blank" title={t(MSG.pipelineTroubleshooting)} aria-label={t(MSG.pipelineTroubleshooting)}>
              <QuestionIcon size={14} />
            </Link>
          </span>
        </div>
      </div>
    );
  }

  const status = detailedStatusOf(pipeline);
  const fullPath = pipeline.project?.fullPath ?? null;
  const statusLabel = pipeline.detailedStatus.label ?? '';
  return (
    <div className={styles.panel} role="group" aria-label={label}>
      <span className={styles.icon}>
        <PipelineStatusIcon status={status} size={16} />
      </span>
      <div className={styles.panelBody}>
        <div className={styles.pipelineTitle}>
          <strong>
            {pipeline.eventTypeName}{' '}
            {pipeline.path ? (
              <RouterLink to={pipeline.path} className={styles.pipelineId}>
                #{idOf(pipeline.id)}
              </RouterLink>
            ) : (
              `#${idOf(pipeline.id)}`
            )}{' '}
            {statusLabel}
          </strong>
          <MiniGraph pipeline={pipeline} />
        </div>
        <div className={`${styles.pipelineDetails} ${styles.muted}`}>
          <span>
            {pipeline.eventTypeName} {statusLabel} {t(MSG.pipelineFor)}{' '}
            {fullPath ? (
              <RouterLink to={urls.commit(fullPath, pipeline.sha)} className={styles.sha} aria-label={`Commit ${shortSha(pipeline.sha)}`}>
                {shortSha(pipeline.sha)}
              </RouterLink>
            ) : (
              <span className={styles.sha}>{shortSha(pipeline.sha)}</span>
            )}{' '}
            {t(MSG.pipelineOn)} <span className={branchName.branch}>{branch}</span> <TimeAgo date={pipeline.finishedAt} />
          </span>
          <EventTypeHelp eventTypeName={pipeline.eventTypeName} />
        </div>
        {/* the head pipeline's coverage shows with its change against the target (reports/PipelineCoverage) */}
        {postMerge && pipeline.coverage !== null ? (
          <div className={styles.muted}>
            {t(MSG.testCoverage)} {pipeline.coverage}%
          </div>
        ) : null}
        {artifacts}
      </div>
    </div>
  );
}
