import { GitMergeQueueIcon } from '@primer/octicons-react';
import { Heading, Label, Stack, UnderlineNav } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import { TimeAgo } from '../../components/TimeAgo';
import type { Project } from '../../lib/gitlab-types';
import { pageFromSearch } from '../../lib/pagination';
import { urls } from '../../lib/routes';
import { byTargetBranch, CAR_STATUS_TEXT, mergeTrainCarsQuery, type MergeTrainCar, type TrainScope } from './api';
import styles from './MergeTrains.module.css';
import { DataTable } from '../../components/DataTable';

const SCOPES: { scope: TrainScope; label: string }[] = [
  { scope: 'active', label: 'Active' },
  { scope: 'complete', label: 'Merged' },
];

const PIPELINE_VARIANTS: Record<string, 'success' | 'danger' | 'accent' | 'secondary'> = { success: 'success', failed: 'danger', canceled: 'secondary', running: 'accent', pending: 'accent' };

/**
 * `/<project>/-/merge_trains`: the queue of each target branch's merge train, front car first,
 * each car with its merge request and pipeline; and the merged history (`?scope=complete`).
 */
export function MergeTrainsPage({ project }: { project: Project }) {
  const fullPath = project.path_with_namespace;
  const [search, setSearch] = useSearchParams();
  const scope: TrainScope = search.get('scope') === 'complete' ? 'complete' : 'active';
  const page = pageFromSearch(search);
  const list = useQuery(mergeTrainCarsQuery(project.id, scope, page));

  return (
    <Stack gap="normal">
      <Heading as="h1" className={styles.title}>
        Merge trains
      </Heading>
      <UnderlineNav aria-label="Merge trains">
        {SCOPES.map((item) => (
          <UnderlineNav.Item
            key={item.scope}
            href={`?scope=${item.scope}`}
            aria-current={scope === item.scope ? 'page' : undefined}
            onSelect={(event) => {
              event.preventDefault();
              setSearch(new URLSearchParams({ scope: item.scope }));
            }}
          >
            {item.label}
          </UnderlineNav.Item>
        ))}
      </UnderlineNav>
      {list.isPending ? (
        <SkeletonBox height="200px" />
      ) : list.isError ? (
        <PageError title="The merge trains could not be loaded." error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        scope === 'active' ? (
          <EmptyState icon={GitMergeQueueIcon} title="No merge requests on a merge train" description="Merge requests added to a merge train wait here, each tested with every merge request ahead of it." />
        ) : (
          <EmptyState icon={GitMergeQueueIcon} title="No merged merge requests yet" description="Merge requests merged by a merge train are listed here." />
        )
      ) : scope === 'active' ? (
        byTargetBranch(list.data.items).map((train) => (
          <section key={train.targetBranch} aria-label={`Merge train of ${train.targetBranch}`}>
            <Heading as="h2" className={styles.branch}>
              <code>{train.targetBranch}</code> <span className={styles.muted}>· {train.cars.length} {train.cars.length === 1 ? 'merge request' : 'merge requests'}</span>
            </Heading>
            <CarTable fullPath={fullPath} cars={train.cars} label={`Queue of ${train.targetBranch}`} queue />
          </section>
        ))
      ) : (
        <>
          <CarTable fullPath={fullPath} cars={list.data.items} label="Merged merge requests" />
          <PaginationNav pageInfo={list.data.pageInfo} onPageChange={(next) => setSearch(new URLSearchParams({ scope, page: String(next) }))} />
        </>
      )}
    </Stack>
  );
}

function CarTable({ fullPath, cars, label, queue = false }: { fullPath: string; cars: MergeTrainCar[]; label: string; queue?: boolean }) {
  return (
    <DataTable label={label} columns={[queue ? 'Position' : null, 'Merge request', 'Status', 'Pipeline', 'Added by', queue ? 'Added' : 'Merged']}>
      {cars.map((car, index) => (
        <tr key={car.id}>
          {queue ? <td>#{index + 1}</td> : null}
          <td>
            {car.merge_request ? (
              <RouterLink to={urls.mergeRequest(fullPath, car.merge_request.iid)}>
                !{car.merge_request.iid} {car.merge_request.title}
              </RouterLink>
            ) : (
              <span className={styles.muted}>Removed merge request</span>
            )}
            {queue ? null : <span className={styles.muted}> into {car.target_branch}</span>}
          </td>
          <td>{CAR_STATUS_TEXT[car.status]}</td>
          <td>
            {car.pipeline ? (
              <span className={styles.pipeline}>
                <RouterLink to={urls.pipeline(fullPath, car.pipeline.id)}>#{car.pipeline.id}</RouterLink>
                <Label variant={PIPELINE_VARIANTS[car.pipeline.status] ?? 'secondary'}>{car.pipeline.status}</Label>
              </span>
            ) : (
              <span className={styles.muted}>None yet</span>
            )}
          </td>
          <td>{car.user?.name ?? ''}</td>
          <td>
            <TimeAgo date={queue ? car.created_at : (car.merged_at ?? car.updated_at)} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
