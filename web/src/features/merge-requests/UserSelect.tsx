import { TriangleDownIcon } from '@primer/octicons-react';
import { Button, SelectPanel, type SelectPanelItemInput } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { EntityAvatar } from '../../components/EntityAvatar';
import { editAnchor, filterAnchor, pickerLoading, pickerMessage, toggledChoice, usePicker } from '../../components/Picker';
import { useDebouncedValue } from '../../components/useDebouncedValue';
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
  return { people: (query.data ?? []) as UserBasic[], loading: pickerLoading(query, open), error: query.error };
}

interface Common {
  /** The panel's title and the button's accessible name. */
  label: string;
  /** Members of this project (GET /projects/:id/members/all), or anyone (GET /users) when null. */
  projectId: number | null;
  /** A small "Edit" button (the sidebar) instead of a button naming the selection. */
  compact?: boolean;
}

const usersMessage = (error: unknown, filter: string, isEmpty: boolean) =>
  pickerMessage({ error, errorTitle: 'Users could not be loaded', empty: { title: 'No matching users', body: filter ? `Nobody matches “${filter}”.` : 'Type to search.' }, isEmpty });

/** Several people (assignees, reviewers): a searchable panel with checkboxes. */
export function UsersSelect({ label, projectId, selected, onChange, compact, emptyText = 'Unassigned' }: Common & { selected: UserBasic[]; onChange: (users: UserBasic[]) => void; emptyText?: string }) {
  const picker = usePicker();
  const { people, loading, error } = usePeople(projectId, picker.open, picker.filter);
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
      {...picker.panel}
      renderAnchor={(anchorProps) =>
        compact ? (
          editAnchor(`Edit ${label.toLowerCase()}`)(anchorProps)
        ) : (
          <Button {...anchorProps} trailingAction={TriangleDownIcon} aria-label={label}>
            {selected.length === 0 ? emptyText : selected.map((user) => user.name).join(', ')}
          </Button>
        )
      }
      items={items}
      selected={chosen}
      onSelectedChange={(next: SelectPanelItemInput[]) => onChange(next.map((item) => (item as Item).user))}
      loading={loading}
      showSelectedOptionsFirst
      message={usersMessage(error, picker.filter, items.length === 0 && !loading)}
      width="medium"
    />
  );
}

/** One person by username (a list filter): selecting the chosen one again clears it. */
export function UserFilterSelect({ label, projectId, username, onChange }: Common & { username: string | null; onChange: (username: string | null) => void }) {
  const picker = usePicker();
  const { people, loading, error } = usePeople(projectId, picker.open, picker.filter);
  const items = people.map(toItem);
  const chosen = items.find((item) => item.user.username === username);
  return (
    <SelectPanel
      title={label}
      inputLabel={`Search ${label.toLowerCase()}`}
      placeholder="Search users"
      {...picker.panel}
      renderAnchor={filterAnchor(username ? `${label}: ${username}` : `${label}: any`, `${label}${username ? `: @${username}` : ''}`)}
      items={items}
      selected={chosen}
      onSelectedChange={(item: SelectPanelItemInput | undefined) => {
        const next = item ? (item as Item).user.username : null;
        onChange(toggledChoice(username, next));
        picker.close();
      }}
      loading={loading}
      message={usersMessage(error, picker.filter, items.length === 0 && !loading)}
      secondaryAction={username ? <SelectPanel.SecondaryActionButton onClick={() => { onChange(null); picker.close(); }}>Clear</SelectPanel.SecondaryActionButton> : undefined}
      width="medium"
    />
  );
}
