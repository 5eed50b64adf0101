import { SyncIcon, TrashIcon, XIcon } from '@primer/octicons-react';
import { Button, Flash, Heading, Stack, UnderlineNav, useConfirm } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { TimeAgo } from '../../components/TimeAgo';
import { NotFoundPage } from '../../app/NotFoundPage';
import { errorMessage } from '../../lib/api-error';
import type { Project } from '../../lib/gitlab-types';
import { DEVELOPER, OWNER } from '../../lib/permissions';
import { urls, type PipelineTab } from '../../lib/routes';
import { userProjectLevel, useOptionalUser } from '../session';
import { externalStatusesQuery, isFinished, pipelineActionMutation, pipelineJobsQuery, pipelineQuery, pipelineRelationsQuery, testReportSummaryQuery } from './api';
import { FailuresTable } from './FailuresTable';
import { formatDuration } from './format';
import { JobsTable } from './JobsTable';
import { ManualVariablesTab } from './ManualVariablesTab';
import { manualVariablesQuery } from './manual-variables-api';
import { PIPELINE_UPDATED, pipelineGid, useCoalesced, useLiveUpdates } from './live';
import { PipelineGraph } from './PipelineGraph';
import { StatusBadge } from './StatusBadge';
import { TestReportTab } from './TestReportTab';
import styles from './Pipelines.module.css';

const RETRYABLE = new Set(['failed', 'canceled']);
const CANCELABLE = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled']);

/**
 * `/<project>/-/pipelines/:id`: the header (status, ref, commit, triggerer, duration, actions) and
 * the tabs Pipeline (graph), Jobs, Failures, Tests (the JUnit report) and Manual variables. Every
 * transition of the pipeline or one of its jobs is heard through `ciPipelineStatusUpdated` and both
 * are read again; while that channel is down an unfinished pipeline is polled instead (never while the browser
 * tab is hidden).
 */
export function PipelinePage({ project, id, tab }: { project: Project; id: number; tab: PipelineTab }) {
  const fullPath = project.path_with_namespace;
  const user = useOptionalUser();
  const level = userProjectLevel(project, user);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [live, setLive] = useState(false);
  const pipeline = useQuery(pipelineQuery(project.id, id, live));
  const running = !isFinished(pipeline.data?.status);
  const jobs = useQuery(pipelineJobsQuery(project.id, id, running && !live));
  const tests = useQuery(testReportSummaryQuery(project.id, id, running));
  const sha = pipeline.data?.sha ?? '';
  // the Manual variables tab's counter (GitLab's manual_variables_count); a read that fails hides the number only
  const manualVariables = useQuery({ ...manualVariablesQuery(fullPath, pipeline.data?.iid ?? 0), enabled: pipeline.data !== undefined });
  const external = useQuery({ ...externalStatusesQuery(project.id, sha, id, running), enabled: sha !== '' });
  // the upstream and downstream pipelines: the graph shows them when they can be read, nothing otherwise
  const relations = useQuery({ ...pipelineRelationsQuery(fullPath, id, running && !live), enabled: tab === 'graph' });
  // Live: every transition of the pipeline or a job reads both again (a burst is one or two reads).
  const refresh = useCoalesced(() => Promise.all([pipeline.refetch(), jobs.refetch(), tab === 'graph' ? relations.refetch() : undefined]));
  const channel = useLiveUpdates(PIPELINE_UPDATED, { pipelineId: pipelineGid(id) }, refresh);
  useEffect(() => setLive(channel === 'live'), [channel]);
  // Polling: the jobs are read again whenever the pipeline changed, so the last transition (the one
  // that finished it, when polling stops) shows too.
  const version = pipeline.data ? `${pipeline.data.status} ${pipeline.data.updated_at}` : null;
  const refetchJobs = jobs.refetch;
  const refetchRelations = relations.refetch;
  useEffect(() => {
    if (version !== null && !live) {
      void refetchJobs();
      if (tab === 'graph') void refetchRelations();
    }
  }, [version, refetchJobs, refetchRelations, tab, live]);
  const act = useMutation({
    ...pipelineActionMutation(project.id),
    onSuccess: (_, { action }) => {
      if (action === 'delete') void navigate(urls.pipelines(fullPath));
      else void queryClient.invalidateQueries({ queryKey: ['projects', project.id] });
    },
  });

  if (pipeline.isPending) return <PageLoading label="Loading pipeline…" />;
  if (pipeline.isError) {
    if ((pipeline.error as { status?: number }).status === 404) return <NotFoundPage />;
    return <PageError title="The pipeline could not be loaded." error={pipeline.error} onRetry={() => void pipeline.refetch()} />;
  }
  const data = pipeline.data;
  const failedCount = jobs.data?.filter((job) => job.status === 'failed').length ?? 0;
  const canUpdate = user !== null && level >= DEVELOPER;

  async function remove() {
    const confirmed = await confirm({
      title: 'Delete pipeline',
      content: 'Are you sure you want to delete this pipeline? Doing so will expire all pipeline caches and delete all related objects, such as builds, logs, artifacts, and triggers. This action cannot be undone.',
      confirmButtonContent: 'Delete pipeline',
      confirmButtonType: 'danger',
    });
    if (confirmed) act.mutate({ pipelineId: id, action: 'delete' });
  }

  const tabs: { id: PipelineTab; label: string; counter?: number }[] = [
    { id: 'graph', label: 'Pipeline' },
    { id: 'builds', label: 'Jobs', counter: jobs.data?.length },
    { id: 'failures', label: 'Failures', counter: failedCount },
    { id: 'test_report', label: 'Tests', counter: tests.data?.total.count },
    { id: 'manual_variables', label: 'Manual variables', counter: manualVariables.data?.count },
  ];

  return (
    <Stack gap="normal">
      <Stack direction="horizontal" justify="space-between" align="start" wrap="wrap">
        <Stack gap="condensed">
          <Heading as="h2" className={styles.headerMeta} style={{ fontSize: 20 }}>
            {data.name || `Pipeline #${data.id}`}
          </Heading>
          <div className={styles.headerMeta}>
            <StatusBadge status={data.detailed_status} />
            <span>
              Pipeline #{data.id} triggered <TimeAgo date={data.created_at} /> {data.user ? <>by {data.user.name}</> : null}
            </span>
          </div>
          <div className={styles.headerMeta}>
            <span>
              For{' '}
              <RouterLink to={urls.tree(fullPath, data.ref)} className={styles.mono}>
                {data.ref}
              </RouterLink>
            </span>
            <RouterLink to={urls.commit(fullPath, data.sha)} className={styles.mono}>
              {data.sha.slice(0, 8)}
            </RouterLink>
            <span className={styles.muted}>Duration {formatDuration(data.duration)}</span>
            <span className={styles.muted}>Source {data.source}</span>
          </div>
        </Stack>
        <Stack direction="horizontal" gap="condensed">
          {canUpdate && RETRYABLE.has(data.status) ? (
            <Button leadingVisual={SyncIcon} disabled={act.isPending} onClick={() => act.mutate({ pipelineId: id, action: 'retry' })}>
              Retry
            </Button>
          ) : null}
          {canUpdate && CANCELABLE.has(data.status) ? (
            <Button leadingVisual={XIcon} variant="danger" disabled={act.isPending} onClick={() => act.mutate({ pipelineId: id, action: 'cancel' })}>
              Cancel pipeline
            </Button>
          ) : null}
          {user !== null && level >= OWNER ? (
            <Button leadingVisual={TrashIcon} variant="danger" disabled={act.isPending} onClick={() => void remove()}>
              Delete
            </Button>
          ) : null}
        </Stack>
      </Stack>
      {act.isError ? (
        <Flash variant="danger" role="alert">
          {errorMessage(act.error)}
        </Flash>
      ) : null}
      {data.yaml_errors ? (
        <Flash variant="danger" role="alert">
          {data.yaml_errors}
        </Flash>
      ) : null}
      <UnderlineNav aria-label="Pipeline tabs">
        {tabs.map((item) => (
          <UnderlineNav.Item key={item.id} as={RouterLink} to={urls.pipeline(fullPath, id, item.id)} aria-current={item.id === tab ? 'page' : undefined} counter={item.counter}>
            {item.label}
          </UnderlineNav.Item>
        ))}
      </UnderlineNav>
      {tab === 'test_report' ? (
        <TestReportTab projectId={project.id} pipelineId={id} />
      ) : tab === 'manual_variables' ? (
        <ManualVariablesTab fullPath={fullPath} pipelineIid={data.iid} />
      ) : jobs.isPending ? (
        <PageLoading label="Loading jobs…" />
      ) : jobs.isError ? (
        <PageError title="The jobs could not be loaded." error={jobs.error} onRetry={() => void jobs.refetch()} />
      ) : tab === 'graph' ? (
        <PipelineGraph projectId={project.id} fullPath={fullPath} pipelineId={id} jobs={jobs.data} external={external.data} relations={relations.data} />
      ) : tab === 'builds' ? (
        <JobsTable projectId={project.id} fullPath={fullPath} jobs={jobs.data} />
      ) : (
        <FailuresTable projectId={project.id} fullPath={fullPath} jobs={jobs.data} />
      )}
    </Stack>
  );
}
