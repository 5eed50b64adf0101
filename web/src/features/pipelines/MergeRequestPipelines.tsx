import { PlayIcon, RocketIcon } from '@primer/octicons-react';
import { Button, Flash, Stack } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import { ApiError } from '../../lib/api-error';
import type { Project } from '../../lib/gitlab-types';
import { mergeRequestPipelinesQuery, runMergeRequestPipelineMutation, type PipelineBasic } from './api';
import { PipelinesTable } from './PipelinesTable';
import styles from './Pipelines.module.css';

/** The messages of 'Run pipeline' (GitLab's merge request pipelines tab). */
export const RUN_PIPELINE_ERRORS = {
  generic: 'An error occurred while trying to run a new pipeline for this merge request.',
  forbidden: 'You do not have permission to run a pipeline on this branch.',
} as const;

/** A fork's pipeline lives in the fork: its path comes from its web_url. */
function projectPathOf(pipeline: PipelineBasic, fallback: string): string {
  try {
    const path = new URL(pipeline.web_url).pathname;
    const end = path.indexOf('/-/pipelines/');
    return end > 1 ? decodeURIComponent(path.slice(1, end)) : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The merge request's Pipelines tab: its pipelines (merge request pipelines first, then the
 * source branch's), and 'Run pipeline', which runs a new merge request pipeline.
 */
export function MergeRequestPipelines({ project, iid, canRun }: { project: Project; iid: number; canRun: boolean }) {
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const pipelines = useQuery(mergeRequestPipelinesQuery(project.id, iid, page));
  const run = useMutation({
    ...runMergeRequestPipelineMutation(project.id, iid),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['projects', project.id, 'merge_requests', iid, 'pipelines'] }),
  });
  const runError = run.error ? (run.error instanceof ApiError && (run.error.status === 403 || run.error.status === 401) ? RUN_PIPELINE_ERRORS.forbidden : RUN_PIPELINE_ERRORS.generic) : null;

  return (
    <Stack gap="normal">
      {canRun ? (
        <div className={styles.toolbar}>
          <span />
          <Button variant="primary" leadingVisual={PlayIcon} loading={run.isPending} onClick={() => run.mutate()}>
            Run pipeline
          </Button>
        </div>
      ) : null}
      {runError ? <Flash variant="danger">{runError}</Flash> : null}
      {pipelines.isPending ? (
        <SkeletonBox height="240px" />
      ) : pipelines.isError ? (
        <PageError title="The pipelines could not be loaded." error={pipelines.error} onRetry={() => void pipelines.refetch()} />
      ) : pipelines.data.items.length === 0 ? (
        <EmptyState icon={RocketIcon} title="There are currently no pipelines." description="Merge request pipelines run when the configuration has jobs for merge request events." />
      ) : (
        <>
          <PipelinesTable pipelines={pipelines.data.items} projectId={(pipeline) => pipeline.project_id} fullPath={(pipeline) => projectPathOf(pipeline, project.path_with_namespace)} />
          <PaginationNav pageInfo={pipelines.data.pageInfo} onPageChange={setPage} />
        </>
      )}
    </Stack>
  );
}
