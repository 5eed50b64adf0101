import { PeopleIcon, SearchIcon } from '@primer/octicons-react';
import { Flash, Stack, TextInput } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import { useListParams } from '../../components/useListParams';
import { useOptionalUser } from '../session';
import { AddMemberForm } from './AddMemberForm';
import { memberListQuery, type MemberSource } from './api';
import { MemberRow } from './MemberRow';
import styles from './MembersPanel.module.css';

/** The members of a project or group: add (when allowed), search, change role, remove. */
export function MembersPanel({
  source,
  resourceName,
  canManage,
  levels,
}: {
  source: MemberSource;
  resourceName: string;
  /** Whether the caller may add, change and remove members (the server decides in the end). */
  canManage: boolean;
  levels: number[];
}) {
  const user = useOptionalUser();
  const { search, page, searchInput, setSearchInput, setPage } = useListParams();
  const members = useQuery(memberListQuery(source, { search, page }));
  const [added, setAdded] = useState<string | null>(null);

  return (
    <Stack gap="normal">
      {canManage ? <AddMemberForm source={source} levels={levels} onAdded={setAdded} onAttempt={() => setAdded(null)} /> : null}
      {added ? (
        <Flash variant="success" role="status">
          <strong>@{added}</strong> was added to {resourceName}.
        </Flash>
      ) : null}
      <TextInput
        aria-label="Search members"
        placeholder="Search members"
        leadingVisual={SearchIcon}
        type="search"
        value={searchInput}
        onChange={(event) => setSearchInput(event.target.value)}
        className={styles.search}
      />
      {members.isPending ? (
        <SkeletonBox height="200px" />
      ) : members.isError ? (
        <PageError title="The members could not be loaded." error={members.error} onRetry={() => void members.refetch()} />
      ) : members.data.items.length === 0 ? (
        <EmptyState
          icon={search ? SearchIcon : PeopleIcon}
          title={search ? 'No members match your search' : 'No direct members'}
          description={search ? `No member matches “${search}”.` : 'Members inherited from parent groups are not listed here.'}
        />
      ) : (
        <>
          <ul className={styles.list} aria-label="Members">
            {members.data.items.map((member) => (
              <MemberRow
                key={member.id}
                source={source}
                member={member}
                isSelf={member.id === user?.id}
                canManage={canManage}
                levels={levels}
                resourceName={resourceName}
              />
            ))}
          </ul>
          <PaginationNav pageInfo={members.data.pageInfo} onPageChange={setPage} />
        </>
      )}
    </Stack>
  );
}
