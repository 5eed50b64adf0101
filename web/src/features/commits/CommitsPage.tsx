import { GitCommitIcon } from '@primer/octicons-react';
import { Heading, Stack } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import { groupCommitsByDay } from '../../lib/commit-groups';
import type { Project } from '../../lib/gitlab-types';
import { pageFromSearch } from '../../lib/pagination';
import { urls } from '../../lib/routes';
import { PathBreadcrumb, RefGate, RefSwitcher, repositoryBrowserStyles as browserStyles } from '../repository';
import { commitListQuery } from './api';
import { CommitRow } from './CommitRow';
import styles from './CommitsPage.module.css';

function CommitList({ project, ref, path }: { project: Project; ref: string; path: string }) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const page = pageFromSearch(params);
  const commits = useQuery(commitListQuery(project.id, { ref, path, page }));
  const fullPath = project.path_with_namespace;

  return (
    <Stack gap="normal">
      <div className={browserStyles.toolbar}>
        <RefSwitcher projectId={project.id} current={ref} onSelect={(next) => void navigate(urls.commits(fullPath, next, path))} />
        <PathBreadcrumb fullPath={fullPath} projectPath={project.path} ref={ref} path={path} />
      </div>
      {commits.isPending ? (
        <SkeletonBox height="320px" />
      ) : commits.isError ? (
        <PageError title="The commits could not be loaded." error={commits.error} onRetry={() => void commits.refetch()} />
      ) : commits.data.items.length === 0 ? (
        <EmptyState icon={GitCommitIcon} title="No commits found" description={path ? `No commit on ${ref} touches ${path}.` : `${ref} has no commits.`} />
      ) : (
        <>
          {groupCommitsByDay(commits.data.items).map((day) => (
            <section key={day.day} aria-labelledby={`day-${day.day}`}>
              <Heading as="h2" variant="small" id={`day-${day.day}`} className={styles.day}>
                <GitCommitIcon /> {day.label}
              </Heading>
              <ol className={styles.list}>
                {day.commits.map((commit) => (
                  <CommitRow key={commit.id} commit={commit} fullPath={fullPath} />
                ))}
              </ol>
            </section>
          ))}
          <PaginationNav
            pageInfo={commits.data.pageInfo}
            onPageChange={(next) => {
              setParams(next > 1 ? { page: String(next) } : {});
              window.scrollTo({ top: 0 });
            }}
          />
        </>
      )}
    </Stack>
  );
}

/** `/<project path>/-/commits/<ref>[/<path>]`: the history, grouped by day, 40 a page. */
export function CommitsPage({ project, refAndPath }: { project: Project; refAndPath: string }) {
  if (!refAndPath) {
    return <EmptyState icon={GitCommitIcon} title="No commits yet" description="Push to this repository to see its history here." />;
  }
  return (
    <RefGate projectId={project.id} refAndPath={refAndPath}>
      {(ref, path) => <CommitList project={project} ref={ref} path={path} />}
    </RefGate>
  );
}
