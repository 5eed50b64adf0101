import { Flash, SegmentedControl, ToggleSwitch } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { pipelineDagQuery, type CommitStatus, type Job, type PipelineRelations } from './api';
import { JobGroupCard } from './JobGroupCard';
import { dependencyLayers, needLinks, needsByJob, needsChain, stageViews, type JobGroupView } from './job-groups';
import { LinkedPipelines } from './LinkedPipelines';
import { NeedsHoverTip } from './NeedsHoverTip';
import { NeedsLinks } from './NeedsLinks';
import { useGraphView } from './useGraphView';
import { fallbackStatus, StatusIcon } from './StatusBadge';
import styles from './Pipelines.module.css';
import graphStyles from './PipelineGraph.module.css';

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


const LIST_STYLE = { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 8 } as const;

/**
 * The pipeline graph: the upstream pipeline, one column per stage with one card per job group
 * (a lone job, or the jobs `parallel:` made of one, opening a dropdown of them), the `external`
 * stage of the statuses outside CI systems posted (each linking to its target_url), then the
 * downstream pipelines. "Group jobs by: Job dependencies" lays the cards out by their `needs`;
 * its "Show dependencies" switch (GitLab's: off on every page load, only in that view) draws a
 * line to each needed card, and hovering (or focusing) a card then highlights its needs chain.
 * The grouping is remembered in the browser (useGraphView); as GitLab's, it is offered only for a
 * pipeline that uses `needs` (a job scheduled by its needs), any other showing its stages.
 */
export function PipelineGraph({
  projectId,
  fullPath,
  pipelineId,
  jobs,
  external = [],
  relations,
}: {
  projectId: number;
  fullPath: string;
  pipelineId: number;
  jobs: Job[];
  external?: CommitStatus[];
  relations?: PipelineRelations;
}) {
  const [error, setError] = useState<string | null>(null);
  const [chosenView, setView] = useGraphView();
  const [hovered, setHovered] = useState<string | null>(null);
  const [showLinks, setShowLinks] = useState(false);
  const canvasRef = useRef<HTMLDivElement>(null);
  const dag = useQuery(pipelineDagQuery(fullPath, projectId, pipelineId));
  const stages = useMemo(() => stageViews(jobs), [jobs]);
  const needs = useMemo(() => needsByJob(dag.data), [dag.data]);
  // GitLab offers "Group jobs by" only for a pipeline that uses needs; any other shows its stages.
  const usesNeeds = needs.size > 0;
  const view = usesNeeds ? chosenView : 'stage';
  const linksShown = view === 'needs' && showLinks;
  const links = useMemo(() => needLinks(stages, needs), [stages, needs]);
  const chain = useMemo(() => (hovered === null ? new Set<string>() : needsChain(links, hovered)), [links, hovered]);
  const columns: { label: string; listLabel: string; title: string | null; groups: JobGroupView[] }[] =
    view === 'stage'
      ? stages.map((stage) => ({ label: `Stage ${stage.name}`, listLabel: `Jobs of stage ${stage.name}`, title: stage.name, groups: stage.groups }))
      : dependencyLayers(stages, links, needs).map((groups, index) => ({ label: `Column ${index + 1}`, listLabel: `Jobs of column ${index + 1}`, title: null, groups }));
  const needsOfCard = (card: string) => links.filter((link) => link.from === card).map((link) => link.to);

  return (
    <>
      {error ? (
        <Flash variant="danger" role="alert">
          {error}
        </Flash>
      ) : null}
      {usesNeeds ? (
        <div className={graphStyles.toolbar}>
          <span id="pipeline-graph-view">Group jobs by</span>
          <SegmentedControl aria-labelledby="pipeline-graph-view" size="small" onChange={(index) => setView(index === 0 ? 'stage' : 'needs')}>
            <SegmentedControl.Button selected={view === 'stage'}>Stage</SegmentedControl.Button>
            <SegmentedControl.Button selected={view === 'needs'}>Job dependencies</SegmentedControl.Button>
          </SegmentedControl>
          {view === 'needs' ? (
            <>
              <span id="pipeline-graph-links">Show dependencies</span>
              <ToggleSwitch size="small" aria-labelledby="pipeline-graph-links" checked={showLinks} onClick={() => setShowLinks(!showLinks)} statusLabelPosition="end" />
            </>
          ) : null}
        </div>
      ) : null}
      {linksShown ? <NeedsHoverTip /> : null}
      {chosenView === 'needs' && dag.isError ? (
        <Flash variant="warning" role="alert">
          The job dependencies could not be loaded.
        </Flash>
      ) : null}
      <div className={styles.graph} aria-label="Pipeline graph" role="region">
        <LinkedPipelines kind="Upstream" projectId={projectId} pipelines={relations?.triggered_by ? [relations.triggered_by] : []} />
        <div className={graphStyles.canvas} ref={canvasRef}>
          {linksShown ? <NeedsLinks container={canvasRef} links={links} highlighted={{ card: hovered, chain }} /> : null}
          <div className={graphStyles.columns}>
            {columns.map((column) => (
              <section key={column.label} className={styles.stage} aria-label={column.label}>
                {column.title !== null ? <h3 className={styles.stageName}>{column.title}</h3> : null}
                <ul aria-label={column.listLabel} style={LIST_STYLE}>
                  {column.groups.map((group) => (
                    <JobGroupCard
                      key={group.name}
                      projectId={projectId}
                      fullPath={fullPath}
                      group={group}
                      needs={needsOfCard(group.name)}
                      highlighted={linksShown && (hovered === group.name || chain.has(group.name))}
                      onError={setError}
                      onHover={linksShown ? setHovered : undefined}
                    />
                  ))}
                </ul>
              </section>
            ))}
          </div>
        </div>
        {external.length > 0 ? (
          <section className={styles.stage} aria-label="Stage external">
            <h3 className={styles.stageName}>external</h3>
            <ul aria-label="Jobs of stage external" style={LIST_STYLE}>
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
