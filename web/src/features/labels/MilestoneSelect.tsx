import { MilestoneIcon } from '@primer/octicons-react';
import { SelectPanel, type SelectPanelItemInput } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { type PickerAnchor, filterAnchor, pickerAnchor, pickerLoading, pickerMessage, toggledChoice, usePicker } from '../../components/Picker';
import type { Milestone } from '../../lib/gitlab-types';
import { projectMilestonesQuery } from './api';

type Item = SelectPanelItemInput & { id: string; milestone: Milestone | null };

const NONE = 'None';
const describe = (milestone: Milestone) => [milestone.group_id !== undefined ? 'Group milestone' : null, milestone.due_date ? `Due ${milestone.due_date}` : null].filter(Boolean).join(' · ') || undefined;
const toItem = (milestone: Milestone): Item => ({ id: String(milestone.id), text: milestone.title, description: describe(milestone), leadingVisual: MilestoneIcon, milestone });

function useMilestoneItems(projectId: number, open: boolean, filter: string, withNone: boolean) {
  const query = useQuery({ ...projectMilestonesQuery(projectId, 'active'), enabled: open });
  const needle = filter.trim().toLowerCase();
  const items: Item[] = (query.data ?? []).filter((milestone) => milestone.title.toLowerCase().includes(needle)).map(toItem);
  if (withNone && (needle === '' || NONE.toLowerCase().includes(needle))) items.unshift({ id: 'none', text: 'No milestone', milestone: null });
  return { items, loading: pickerLoading(query, open), error: query.error };
}

/** The sidebar's Milestone picker: the project's and its groups' open milestones, or none. */
export function MilestoneSelect({ projectId, selected, onChange, anchor = { text: 'Edit', label: 'Edit milestone' } }: {
  projectId: number;
  selected: Milestone | null;
  onChange: (milestone: Milestone | null) => void;
  /** the button that opens the panel: the sidebar's Edit, or a form's Select milestone */
  anchor?: PickerAnchor;
}) {
  const picker = usePicker();
  const { items, loading, error } = useMilestoneItems(projectId, picker.open, picker.filter, true);
  return (
    <SelectPanel
      title="Assign milestone"
      inputLabel="Search milestones"
      placeholderText="Search milestones"
      {...picker.panel}
      renderAnchor={pickerAnchor(anchor)}
      items={items}
      selected={items.find((item) => (item.milestone?.id ?? null) === (selected?.id ?? null))}
      onSelectedChange={(item: SelectPanelItemInput | undefined) => {
        const next = item ? (item as Item).milestone : null;
        if ((next?.id ?? null) !== (selected?.id ?? null)) onChange(next);
        picker.close();
      }}
      loading={loading}
      message={pickerMessage({ error, errorTitle: 'Milestones could not be loaded', empty: { title: 'No matching milestones', body: 'Try another search.' }, isEmpty: items.length === 0 && !loading })}
      width="medium"
    />
  );
}

/** A milestone filter for lists: a title, or GitLab's None / Any. */
export function MilestoneFilterSelect({ projectId, value, onChange }: { projectId: number; value: string | null; onChange: (title: string | null) => void }) {
  const picker = usePicker();
  const { items: milestones, loading, error } = useMilestoneItems(projectId, picker.open, picker.filter, false);
  const items: Item[] = [
    { id: 'None', text: 'None', description: 'Without a milestone', milestone: null },
    { id: 'Any', text: 'Any', description: 'With any milestone', milestone: null },
    ...milestones,
  ];
  const titleOf = (item: Item) => item.milestone?.title ?? item.id;
  return (
    <SelectPanel
      title="Milestone"
      inputLabel="Search milestones"
      placeholderText="Search milestones"
      {...picker.panel}
      renderAnchor={filterAnchor(value ? `Milestone: ${value}` : 'Milestone: any', `Milestone${value ? `: ${value}` : ''}`)}
      items={items}
      selected={items.find((item) => titleOf(item) === value)}
      onSelectedChange={(item: SelectPanelItemInput | undefined) => {
        const next = item ? titleOf(item as Item) : null;
        onChange(toggledChoice(value, next));
        picker.close();
      }}
      loading={loading}
      message={pickerMessage({ error, errorTitle: 'Milestones could not be loaded', isEmpty: false })}
      width="medium"
    />
  );
}
