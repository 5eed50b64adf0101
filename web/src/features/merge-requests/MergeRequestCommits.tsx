import { GitCommitIcon } from '@primer/octicons-react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { pageFromSearch } from '../../lib/pagination';
import { CommitRow } from '../commits';
import { mergeRequestCommitsQuery } from './api';
import styles from './MergeRequestPage.module.css';

/** The Commits tab: the commits the merge request adds, newest first. */
export function MergeRequestCommits({ project, mr }: { project: Project; mr: MergeRequest }) {
  const [search, setSearch] = useSearchParams();
  const page = pageFromSearch(search);
  const commits = useQuery(mergeRequestCommitsQuery(project.id, mr.iid, page));
  if (commits.isPending) return <SkeletonBox height="240px" />;
  if (commits.isError) return <PageError title="The commits could not be loaded." error={commits.error} onRetry={() => void commits.refetch()} />;
  if (commits.data.items.length === 0) {
    return <EmptyState icon={GitCommitIcon} title="No commits" description={`The source branch has no commits that ${mr.target_branch} does not have.`} />;
  }
  return (
    <>
      <ol className={styles.commitList} aria-label="Commits">
        {commits.data.items.map((commit) => (
          <CommitRow key={commit.id} commit={commit} fullPath={project.path_with_namespace} />
        ))}
      </ol>
      <PaginationNav
        pageInfo={commits.data.pageInfo}
        onPageChange={(next) => {
          setSearch(next > 1 ? { page: String(next) } : {});
          window.scrollTo({ top: 0 });
        }}
      />
    </>
  );
}
