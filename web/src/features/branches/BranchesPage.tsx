import { GitBranchIcon, SearchIcon } from '@primer/octicons-react';
import { Button, Flash, Stack, TextInput } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import { useListParams } from '../../components/useListParams';
import type { Project } from '../../lib/gitlab-types';
import { canCreateBranch, canDeleteBranch } from '../../lib/permissions';
import { RecentPushBanner } from '../merge-requests';
import { userProjectLevel, useOptionalUser } from '../session';
import { branchListQuery } from './api';
import { BranchRow } from './BranchRow';
import styles from './BranchesPage.module.css';
import { NewBranchDialog } from './NewBranchDialog';

/** `/<project path>/-/branches`: search, create and delete branches. */
export function BranchesPage({ project }: { project: Project }) {
  const user = useOptionalUser();
  const level = userProjectLevel(project, user);
  const { search, page, searchInput, setSearchInput, setPage } = useListParams();
  const branches = useQuery(branchListQuery(project.id, { search, page }));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);

  return (
    <Stack gap="normal">
      <RecentPushBanner project={project} />
      <div className={styles.toolbar}>
        <TextInput
          aria-label="Search branches"
          placeholder="Filter by branch name"
          leadingVisual={SearchIcon}
          type="search"
          value={searchInput}
          onChange={(event) => setSearchInput(event.target.value)}
          className={styles.search}
        />
        {canCreateBranch(level) && !project.empty_repo ? (
          <Button variant="primary" onClick={() => setCreating(true)}>
            New branch
          </Button>
        ) : null}
      </div>
      {created ? (
        <Flash variant="success">
          Branch <strong>{created}</strong> was created.
        </Flash>
      ) : null}
      {branches.isPending ? (
        <SkeletonBox height="240px" />
      ) : branches.isError ? (
        <PageError title="The branches could not be loaded." error={branches.error} onRetry={() => void branches.refetch()} />
      ) : branches.data.items.length === 0 ? (
        search ? (
          <EmptyState icon={SearchIcon} title="No branches to show" description={`No branch name contains “${search}”.`} />
        ) : (
          <EmptyState icon={GitBranchIcon} title="No branches yet" description="Push to this repository to create its first branch." />
        )
      ) : (
        <>
          <ul className={styles.list} aria-label="Branches">
            {branches.data.items.map((branch) => (
              <BranchRow key={branch.name} project={project} branch={branch} canDelete={user !== null && canDeleteBranch(branch, level)} canPropose={canCreateBranch(level)} />
            ))}
          </ul>
          <PaginationNav pageInfo={branches.data.pageInfo} onPageChange={setPage} />
        </>
      )}
      {creating ? (
        <NewBranchDialog
          project={project}
          onClose={() => setCreating(false)}
          onCreated={(branch) => {
            setCreating(false);
            setCreated(branch.name);
          }}
        />
      ) : null}
    </Stack>
  );
}
