import { PlusIcon, SignOutIcon, KeyIcon, GitBranchIcon } from '@primer/octicons-react';
import { ActionList, ActionMenu, Header, IconButton } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { EntityAvatar } from '../components/EntityAvatar';
import { signOutMutation, useOptionalUser } from '../features/session';
import { urls } from '../lib/routes';
import type { User } from '../lib/gitlab-types';
import styles from './AppHeader.module.css';

function NavLink({ to, label, active }: { to: string; label: string; active: boolean }) {
  return (
    <Header.Item>
      <Header.Link as={RouterLink} to={to} aria-current={active ? 'page' : undefined} className={styles.navLink}>
        {label}
      </Header.Link>
    </Header.Item>
  );
}

/** The top bar: app name, then the user's sections and menus, or 'Sign in' for a signed-out visitor. No search. */
export function AppHeader() {
  const user = useOptionalUser();
  const { pathname, search, hash } = useLocation();
  if (user) return <SignedInHeader user={user} />;
  return (
    <Header className={styles.header} data-sticky-top="">
      <Brand />
      <Header.Item full />
      <Header.Item className={styles.userItem}>
        {/* back to this page after signing in */}
        <Header.Link as={RouterLink} to={urls.signIn(pathname + search + hash)} className={styles.navLink}>
          Sign in
        </Header.Link>
      </Header.Item>
    </Header>
  );
}

function Brand() {
  return (
    <Header.Item>
      <Header.Link as={RouterLink} to="/" className={styles.brand}>
        <GitBranchIcon size={24} />
        <span>Tributary</span>
      </Header.Link>
    </Header.Item>
  );
}

function SignedInHeader({ user }: { user: User }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = useMutation({
    ...signOutMutation(),
    onSettled: () => {
      queryClient.clear();
      void navigate('/users/sign_in', { replace: true });
    },
  });

  return (
    <Header className={styles.header} data-sticky-top="">
      <Brand />
      <nav aria-label="Main" className={styles.nav}>
        <NavLink to="/" label="Projects" active={pathname === '/' || pathname.startsWith('/dashboard/projects')} />
        <NavLink to="/dashboard/groups" label="Groups" active={pathname.startsWith('/dashboard/groups')} />
        <NavLink to="/dashboard/merge_requests" label="Merge requests" active={pathname.startsWith('/dashboard/merge_requests')} />
        {user.is_admin ? <NavLink to="/admin/users" label="Admin" active={pathname.startsWith('/admin')} /> : null}
      </nav>
      <Header.Item full />
      <Header.Item>
        <ActionMenu>
          <ActionMenu.Anchor>
            <IconButton icon={PlusIcon} aria-label="Create new…" variant="invisible" className={styles.headerButton} />
          </ActionMenu.Anchor>
          <ActionMenu.Overlay width="small">
            <ActionList>
              <ActionList.LinkItem as={RouterLink} to="/projects/new">
                New project
              </ActionList.LinkItem>
              <ActionList.LinkItem as={RouterLink} to="/groups/new">
                New group
              </ActionList.LinkItem>
            </ActionList>
          </ActionMenu.Overlay>
        </ActionMenu>
      </Header.Item>
      <Header.Item className={styles.userItem}>
        <ActionMenu>
          <ActionMenu.Anchor>
            <button type="button" className={styles.userButton} aria-label={`User menu for ${user.name}`}>
              <EntityAvatar name={user.name} id={user.id} src={user.avatar_url} size={28} square={false} />
            </button>
          </ActionMenu.Anchor>
          <ActionMenu.Overlay width="medium">
            <ActionList>
              <ActionList.Group>
                {/* In a menu, group headings are presentational (Primer refuses a heading level here). */}
                <ActionList.GroupHeading>
                  {user.name} <span className={styles.username}>@{user.username}</span>
                </ActionList.GroupHeading>
              </ActionList.Group>
              <ActionList.LinkItem as={RouterLink} to="/-/user_settings/personal_access_tokens">
                <ActionList.LeadingVisual>
                  <KeyIcon />
                </ActionList.LeadingVisual>
                Access tokens
              </ActionList.LinkItem>
              <ActionList.Divider />
              <ActionList.Item onSelect={() => signOut.mutate()} disabled={signOut.isPending}>
                <ActionList.LeadingVisual>
                  <SignOutIcon />
                </ActionList.LeadingVisual>
                Sign out
              </ActionList.Item>
            </ActionList>
          </ActionMenu.Overlay>
        </ActionMenu>
      </Header.Item>
    </Header>
  );
}
