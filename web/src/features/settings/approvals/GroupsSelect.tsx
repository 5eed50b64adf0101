import { TriangleDownIcon } from '@primer/octicons-react';
import { Button, SelectPanel, type SelectPanelItemInput } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { EntityAvatar } from '../../../components/EntityAvatar';
import { pickerLoading, pickerMessage, usePicker } from '../../../components/Picker';
import { useDebouncedValue } from '../../../components/useDebouncedValue';
import { groupsSearchQuery, type ProjectApprovalRule } from './api';

type RuleGroup = ProjectApprovalRule['groups'][number];
type Item = SelectPanelItemInput & { id: string; group: RuleGroup };

const toItem = (group: RuleGroup): Item => ({
  id: String(group.id),
  text: group.full_name,
  description: group.full_path,
  leadingVisual: () => <EntityAvatar name={group.name} id={group.id} src={group.avatar_url} size={16} square />,
  group,
});

/** Several groups (a rule's approver groups): a searchable panel with checkboxes over GET /groups. */
export function GroupsSelect({ label, selected, onChange }: { label: string; selected: RuleGroup[]; onChange: (groups: RuleGroup[]) => void }) {
  const picker = usePicker();
  const search = useDebouncedValue(picker.filter.trim());
  const query = useQuery({ ...groupsSearchQuery(search), enabled: picker.open });
  const loading = pickerLoading(query, picker.open);
  const items = useMemo(() => {
    const byId = new Map<number, RuleGroup>();
    for (const group of [...selected, ...(query.data ?? [])]) byId.set(group.id, group);
    return [...byId.values()].map(toItem);
  }, [query.data, selected]);
  const chosen = items.filter((item) => selected.some((group) => group.id === item.group.id));
  return (
    <SelectPanel
      title={label}
      inputLabel={`Search ${label.toLowerCase()}`}
      placeholder="Search groups"
      {...picker.panel}
      renderAnchor={(anchorProps) => (
        <Button {...anchorProps} trailingAction={TriangleDownIcon} aria-label={label}>
          {selected.length === 0 ? 'Select groups' : selected.map((group) => group.full_name).join(', ')}
        </Button>
      )}
      items={items}
      selected={chosen}
      onSelectedChange={(next: SelectPanelItemInput[]) => onChange(next.map((item) => (item as Item).group))}
      loading={loading}
      showSelectedOptionsFirst
      message={pickerMessage({ error: query.error, errorTitle: 'Groups could not be loaded', empty: { title: 'No matching groups', body: picker.filter ? `No group matches “${picker.filter}”.` : 'Type to search.' }, isEmpty: items.length === 0 && !loading })}
      width="medium"
    />
  );
}
