import { TriangleDownIcon } from '@primer/octicons-react';
import { Button, SelectPanel, type SelectPanelItemInput } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { EntityAvatar } from '../../components/EntityAvatar';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { errorMessage } from '../../lib/api-error';
import type { UserBasic } from '../../lib/gitlab-types';
import { projectUsersQuery, usersSearchQuery } from './api';

type Item = SelectPanelItemInput & { id: string; user: UserBasic };

const toItem = (user: UserBasic): Item => ({
  id: String(user.id),
  text: user.name,
  description: `@${user.username}`,
  leadingVisual: () => <EntityAvatar name={user.name} id={user.id} src={user.avatar_url} size={16} square={false} />,
  user,
});

function usePeople(projectId: number | null, open: boolean, filter: string) {
  const search = useDebouncedValue(filter.trim());
  const members = useQuery({ ...projectUsersQuery(projectId ?? 0, search), enabled: open && projectId !== null });
  const users = useQuery({ ...usersSearchQuery(search), enabled: open && projectId === null });
  const query = projectId === null ? users : members;
  return { people: (query.data ?? []) as UserBasic[], loading: query.isPending && open, error: query.error };
}

interface Common {
  /** The panel's title and the button's accessible name. */
  label: string;
  /** Members of this project (GET /projects/:id/members/all), or anyone (GET /users) when null. */
  projectId: number | null;
  /** A small "Edit" button (the sidebar) instead of a button naming the selection. */
  compact?: boolean;
}

/** Several people (assignees, reviewers): a searchable panel with checkboxes. */
export function UsersSelect({ label, projectId, selected, onChange, compact }: Common & { selected: UserBasic[]; onChange: (users: UserBasic[]) => void }) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const { people, loading, error } = usePeople(projectId, open, filter);
  const items = useMemo(() => {
    const byId = new Map<number, UserBasic>();
    for (const user of [...selected, ...people]) byId.set(user.id, user);
    return [...byId.values()].map(toItem);
  }, [people, selected]);
  const chosen = items.filter((item) => selected.some((user) => user.id === item.user.id));
  return (
    <SelectPanel
      title={label}
      inputLabel={`Search ${label.toLowerCase()}`}
      placeholder="Search users"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setFilter('');
      }}
      renderAnchor={({ children: _children, ...anchorProps }) =>
        compact ? (
          <Button {...anchorProps} size="small" variant="invisible" aria-label={`Edit ${label.toLowerCase()}`}>
            Edit
          </Button>
        ) : (
          <Button {...anchorProps} trailingAction={TriangleDownIcon} aria-label={label}>
            {selected.length === 0 ? 'Unassigned' : selected.map((user) => user.name).join(', ')}
          </Button>
        )
      }
      items={items}
      selected={chosen}
      onSelectedChange={(next: SelectPanelItemInput[]) => onChange(next.map((item) => (item as Item).user))}
      filterValue={filter}
      onFilterChange={setFilter}
      loading={loading}
      showSelectedOptionsFirst
      message={
        error
          ? { variant: 'error', title: 'Users could not be loaded', body: errorMessage(error) }
          : items.length === 0 && !loading
            ? { variant: 'empty', title: 'No matching users', body: filter ? `Nobody matches “${filter}”.` : 'Type to search.' }
            : undefined
      }
      width="medium"
    />
  );
}

/** One person by username (a list filter): selecting the chosen one again clears it. */
export function UserFilterSelect({ label, projectId, username, onChange }: Common & { username: string | null; onChange: (username: string | null) => void }) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const { people, loading, error } = usePeople(projectId, open, filter);
  const items = people.map(toItem);
  const chosen = items.find((item) => item.user.username === username);
  return (
    <SelectPanel
      title={label}
      inputLabel={`Search ${label.toLowerCase()}`}
      placeholder="Search users"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setFilter('');
      }}
      renderAnchor={({ children: _children, ...anchorProps }) => (
        <Button {...anchorProps} size="small" trailingAction={TriangleDownIcon} aria-label={username ? `${label}: ${username}` : `${label}: any`}>
          {label}
          {username ? `: @${username}` : ''}
        </Button>
      )}
      items={items}
      selected={chosen}
      onSelectedChange={(item: SelectPanelItemInput | undefined) => {
        const next = item ? (item as Item).user.username : null;
        onChange(next === username ? null : next);
        setOpen(false);
      }}
      filterValue={filter}
      onFilterChange={setFilter}
      loading={loading}
      message={
        error
          ? { variant: 'error', title: 'Users could not be loaded', body: errorMessage(error) }
          : items.length === 0 && !loading
            ? { variant: 'empty', title: 'No matching users', body: filter ? `Nobody matches “${filter}”.` : 'Type to search.' }
            : undefined
      }
      secondaryAction={username ? <SelectPanel.SecondaryActionButton onClick={() => { onChange(null); setOpen(false); }}>Clear</SelectPanel.SecondaryActionButton> : undefined}
      width="medium"
    />
  );
}
