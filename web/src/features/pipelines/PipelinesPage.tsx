import { PlayIcon, RocketIcon, SearchIcon } from '@primer/octicons-react';
import { Button, FormControl, Link, Select, Stack, TextInput } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { LinkButton } from '../../components/AppLink';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import type { Project } from '../../lib/gitlab-types';
import { pageFromSearch } from '../../lib/pagination';
import { DEVELOPER } from '../../lib/permissions';
import { urls } from '../../lib/routes';
import { userProjectLevel, useOptionalUser } from '../session';
import { pipelineListQuery, type PipelineListParams } from './api';
import { PIPELINE_STATUSES, SOURCES, statusText } from './format';
import { PROJECT_PIPELINES_UPDATED, projectGid, useCoalesced, useLiveUpdates } from './live';
import { PipelinesTable } from './PipelinesTable';
import styles from './Pipelines.module.css';

/** GitLab's documentation of the `.gitlab-ci.yml` file, linked from the empty list. */
export const CI_YAML_DOCS = 'https://docs.gitlab.com/ee/ci/yaml/';

const FILTERS = ['status', 'ref', 'source', 'username'] as const;

/**
 * `/<project>/-/pipelines`: the project's pipelines, newest first, filtered by status, ref, source
 * and triggerer; live through `ciPipelineStatusesUpdated` (polled while that channel is down).
 */
export function PipelinesPage({ project }: { project: Project }) {
  const fullPath = project.path_with_namespace;
  const user = useOptionalUser();
  const [search, setSearch] = useSearchParams();
  const params: PipelineListParams = {
    status: search.get('status') ?? '',
    ref: search.get('ref') ?? '',
    source: search.get('source') ?? '',
    username: search.get('username') ?? '',
    page: pageFromSearch(search),
  };
  const [live, setLive] = useState(false);
  const pipelines = useQuery(pipelineListQuery(project.id, fullPath, params, live));
  // A new pipeline or a transition of a listed one reads the page again.
  const refresh = useCoalesced(() => pipelines.refetch());
  const channel = useLiveUpdates(PROJECT_PIPELINES_UPDATED, { projectId: projectGid(project.id) }, refresh);
  useEffect(() => setLive(channel === 'live'), [channel]);
  const filtered = FILTERS.some((key) => params[key] !== '');
  const canRun = user !== null && userProjectLevel(project, user) >= DEVELOPER && !project.empty_repo;

  function setFilter(key: (typeof FILTERS)[number] | 'page', value: string) {
    setSearch((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== 'page') next.delete('page');
      return next;
    });
  }

  return (
    <Stack gap="normal">
      <div className={styles.toolbar}>
        <form
          className={styles.filters}
          aria-label="Filter pipelines"
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            setSearch(() => {
              const next = new URLSearchParams();
              for (const key of FILTERS) {
                const value = String(data.get(key) ?? '').trim();
                if (value) next.set(key, value);
              }
              return next;
            });
          }}
        >
          <FormControl>
            <FormControl.Label>Status</FormControl.Label>
            <Select name="status" defaultValue={params.status} key={`status-${params.status}`} onChange={(event) => setFilter('status', event.target.value)}>
              <Select.Option value="">Any status</Select.Option>
              {PIPELINE_STATUSES.map((status) => (
                <Select.Option key={status} value={status}>
                  {statusText(status)}
                </Select.Option>
              ))}
            </Select>
          </FormControl>
          <FormControl>
            <FormControl.Label>Source</FormControl.Label>
            <Select name="source" defaultValue={params.source} key={`source-${params.source}`} onChange={(event) => setFilter('source', event.target.value)}>
              <Select.Option value="">Any source</Select.Option>
              {Object.entries(SOURCES).map(([value, label]) => (
                <Select.Option key={value} value={value}>
                  {label}
                </Select.Option>
              ))}
            </Select>
          </FormControl>
          <FormControl>
            <FormControl.Label>Branch or tag</FormControl.Label>
            <TextInput name="ref" defaultValue={params.ref} key={`ref-${params.ref}`} />
          </FormControl>
          <FormControl>
            <FormControl.Label>Trigger author</FormControl.Label>
            <TextInput name="username" defaultValue={params.username} key={`user-${params.username}`} placeholder="username" />
          </FormControl>
          <Button type="submit" leadingVisual={SearchIcon}>
            Filter
          </Button>
        </form>
        {canRun ? (
          <LinkButton to={urls.newPipeline(fullPath)} variant="primary" leadingVisual={PlayIcon}>
            Run pipeline
          </LinkButton>
        ) : null}
      </div>
      {pipelines.isPending ? (
        <SkeletonBox height="240px" />
      ) : pipelines.isError ? (
        <PageError title="The pipelines could not be loaded." error={pipelines.error} onRetry={() => void pipelines.refetch()} />
      ) : pipelines.data.items.length === 0 ? (
        filtered ? (
          <EmptyState icon={SearchIcon} title="No results found" description="No pipeline matches these filters." />
        ) : (
          <EmptyState icon={RocketIcon} title="There are currently no pipelines." description="Pipelines run when a commit with a .gitlab-ci.yml file is pushed.">
            <Link href={CI_YAML_DOCS} target="_blank" rel="noopener noreferrer">
              Learn how to write the .gitlab-ci.yml file
            </Link>
          </EmptyState>
        )
      ) : (
        <>
          <PipelinesTable pipelines={pipelines.data.items} projectId={() => project.id} fullPath={() => fullPath} />
          <PaginationNav pageInfo={pipelines.data.pageInfo} onPageChange={(page) => setFilter('page', String(page))} />
        </>
      )}
    </Stack>
  );
}
