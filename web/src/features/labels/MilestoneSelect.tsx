import { MilestoneIcon, TriangleDownIcon } from '@primer/octicons-react';
import { Button, SelectPanel, type SelectPanelItemInput } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api-error';
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
  return { items, loading: query.isPending && open, error: query.error };
}

/** The sidebar's Milestone picker: the project's and its groups' open milestones, or none. */
export function MilestoneSelect({ projectId, selected, onChange, anchor = { text: 'Edit', label: 'Edit milestone' } }: {
  projectId: number;
  selected: Milestone | null;
  onChange: (milestone: Milestone | null) => void;
  /** the button that opens the panel: the sidebar's Edit, or a form's Select milestone */
  anchor?: { text: string; label: string; dropdown?: boolean };
}) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const { items, loading, error } = useMilestoneItems(projectId, open, filter, true);
  return (
    <SelectPanel
      title="Assign milestone"
      inputLabel="Search milestones"
      placeholderText="Search milestones"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setFilter('');
      }}
      renderAnchor={({ children: _children, ...anchorProps }) => (
        <Button {...anchorProps} size="small" variant={anchor.dropdown ? 'default' : 'invisible'} trailingAction={anchor.dropdown ? TriangleDownIcon : undefined} aria-label={anchor.label}>
          {anchor.text}
        </Button>
      )}
      items={items}
      selected={items.find((item) => (item.milestone?.id ?? null) === (selected?.id ?? null))}
      onSelectedChange={(item: SelectPanelItemInput | undefined) => {
        const next = item ? (item as Item).milestone : null;
        if ((next?.id ?? null) !== (selected?.id ?? null)) onChange(next);
        setOpen(false);
      }}
      filterValue={filter}
      onFilterChange={setFilter}
      loading={loading}
      message={error ? { variant: 'error', title: 'Milestones could not be loaded', body: errorMessage(error) } : items.length === 0 && !loading ? { variant: 'empty', title: 'No matching milestones', body: 'Try another search.' } : undefined}
      width="medium"
    />
  );
}

/** A milestone filter for lists: a title, or GitLab's None / Any. */
export function MilestoneFilterSelect({ projectId, value, onChange }: { projectId: number; value: string | null; onChange: (title: string | null) => void }) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const { items: milestones, loading, error } = useMilestoneItems(projectId, open, filter, false);
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
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setFilter('');
      }}
      renderAnchor={({ children: _children, ...anchorProps }) => (
        <Button {...anchorProps} size="small" trailingAction={TriangleDownIcon} aria-label={value ? `Milestone: ${value}` : 'Milestone: any'}>
          Milestone{value ? `: ${value}` : ''}
        </Button>
      )}
      items={items}
      selected={items.find((item) => titleOf(item) === value)}
      onSelectedChange={(item: SelectPanelItemInput | undefined) => {
        const next = item ? titleOf(item as Item) : null;
        onChange(next === value ? null : next);
        setOpen(false);
      }}
      filterValue={filter}
      onFilterChange={setFilter}
      loading={loading}
      message={error ? { variant: 'error', title: 'Milestones could not be loaded', body: errorMessage(error) } : undefined}
      width="medium"
    />
  );
}
