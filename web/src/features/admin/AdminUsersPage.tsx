import { PersonIcon, PlusIcon, SearchIcon } from '@primer/octicons-react';
import { Flash, Label, PageHeader, Stack, TextInput } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { NotFoundPage } from '../../app/NotFoundPage';
import { LinkButton } from '../../components/AppLink';
import { EmptyState } from '../../components/EmptyState';
import { EntityAvatar } from '../../components/EntityAvatar';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import { useListParams } from '../../components/useListParams';
import { formatDate } from '../../lib/time';
import { useCurrentUser } from '../session';
import { userListQuery } from './api';
import styles from './AdminUsersPage.module.css';
import { useDocumentTitle } from '../../components/useDocumentTitle';

function UserTable() {
  const me = useCurrentUser();
  const { search, page, searchInput, setSearchInput, setPage } = useListParams();
  const users = useQuery(userListQuery({ search, page }));
  return (
    <Stack gap="normal">
      <TextInput
        aria-label="Search users"
        placeholder="Search by name, email or username"
        leadingVisual={SearchIcon}
        type="search"
        value={searchInput}
        onChange={(event) => setSearchInput(event.target.value)}
        block
      />
      {users.isPending ? (
        <SkeletonBox height="240px" />
      ) : users.isError ? (
        <PageError title="The users could not be loaded." error={users.error} onRetry={() => void users.refetch()} />
      ) : users.data.items.length === 0 ? (
        <EmptyState icon={PersonIcon} title="No users found" description={search ? `No user matches “${search}”.` : undefined} />
      ) : (
        <>
          <div className={styles.wrap}>
            <table className={styles.table} aria-label="Users">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Created on</th>
                  <th scope="col">Last activity</th>
                </tr>
              </thead>
              <tbody>
                {users.data.items.map((user) => (
                  <tr key={user.id}>
                    <td>
                      <div className={styles.user}>
                        <EntityAvatar name={user.name} id={user.id} src={user.avatar_url} size={32} square={false} />
                        <div>
                          <div>
                            <strong>{user.name}</strong> {user.is_admin ? <Label variant="accent">Admin</Label> : null}{' '}
                            {user.id === me.id ? <Label>It's you!</Label> : null}{' '}
                            {user.state !== 'active' ? <Label variant="attention">{user.state}</Label> : null}
                          </div>
                          <div className="fgMuted">@{user.username}</div>
                        </div>
                      </div>
                    </td>
                    <td>{user.email ?? '—'}</td>
                    <td>{user.created_at ? formatDate(user.created_at) : '—'}</td>
                    <td>{user.last_activity_on ? formatDate(user.last_activity_on) : 'Never'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <PaginationNav pageInfo={users.data.pageInfo} onPageChange={setPage} />
        </>
      )}
    </Stack>
  );
}

/** `/admin/users` (administrators only). */
export function AdminUsersPage() {
  useDocumentTitle(['Users', 'Admin area']);
  const me = useCurrentUser();
  // The new user form comes back here with the account it created (GitLab's notice).
  const created = (useLocation().state as { createdUser?: string } | null)?.createdUser;
  if (!me.is_admin) return <NotFoundPage />;
  return (
    <Stack gap="normal">
      {created ? (
        <Flash variant="success" role="status">
          User was successfully created. <strong>@{created}</strong> can now sign in.
        </Flash>
      ) : null}
      <PageHeader>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">Users</PageHeader.Title>
        </PageHeader.TitleArea>
        <PageHeader.Actions>
          <LinkButton to="/admin/abuse_reports">Abuse reports</LinkButton>
          <LinkButton to="/admin/users/new" variant="primary" leadingVisual={PlusIcon}>
            New user
          </LinkButton>
        </PageHeader.Actions>
      </PageHeader>
      <UserTable />
    </Stack>
  );
}
