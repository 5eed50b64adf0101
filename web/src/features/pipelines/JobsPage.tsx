import { SearchIcon, WorkflowIcon } from '@primer/octicons-react';
import { FormControl, Select, Stack } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import type { Project } from '../../lib/gitlab-types';
import { pageFromSearch } from '../../lib/pagination';
import { projectJobsQuery } from './api';
import { JobsTable } from './JobsTable';
import { statusText } from './format';

/** The job scopes GitLab's jobs list filters by. */
const JOB_SCOPES = ['created', 'pending', 'running', 'failed', 'success', 'canceled', 'skipped', 'manual'];

/** `/<project>/-/jobs`: every job of the project, newest first, filtered by status. */
export function JobsPage({ project }: { project: Project }) {
  const [search, setSearch] = useSearchParams();
  const scope = search.get('status') ?? '';
  const page = pageFromSearch(search);
  const jobs = useQuery(projectJobsQuery(project.id, scope, page));
  return (
    <Stack gap="normal">
      <FormControl>
        <FormControl.Label>Status</FormControl.Label>
        <Select
          value={scope}
          onChange={(event) =>
            setSearch(() => {
              const next = new URLSearchParams();
              if (event.target.value) next.set('status', event.target.value);
              return next;
            })
          }
        >
          <Select.Option value="">All</Select.Option>
          {JOB_SCOPES.map((value) => (
            <Select.Option key={value} value={value}>
              {statusText(value)}
            </Select.Option>
          ))}
        </Select>
      </FormControl>
      {jobs.isPending ? (
        <SkeletonBox height="240px" />
      ) : jobs.isError ? (
        <PageError title="The jobs could not be loaded." error={jobs.error} onRetry={() => void jobs.refetch()} />
      ) : jobs.data.items.length === 0 ? (
        scope ? (
          <EmptyState icon={SearchIcon} title="No jobs to show" description={`No job is ${statusText(scope)}.`} />
        ) : (
          <EmptyState icon={WorkflowIcon} title="There are currently no jobs." description="Jobs appear here once a pipeline runs." />
        )
      ) : (
        <>
          <JobsTable projectId={project.id} fullPath={project.path_with_namespace} jobs={jobs.data.items} showPipeline />
          <PaginationNav
            pageInfo={jobs.data.pageInfo}
            onPageChange={(next) =>
              setSearch((current) => {
                const params = new URLSearchParams(current);
                params.set('page', String(next));
                return params;
              })
            }
          />
        </>
      )}
    </Stack>
  );
}
