import { TriangleDownIcon } from '@primer/octicons-react';
import { Button, SelectPanel, type SelectPanelItemInput } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../lib/api-error';
import type { Label } from '../../lib/gitlab-types';
import { projectLabelsQuery } from './api';
import { safeColor } from './label-parts';

type Item = SelectPanelItemInput & { id: string; label: Label };

const swatch = (color: string) => () => <span aria-hidden style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 6, backgroundColor: safeColor(color) }} />;
const toItem = (label: Label): Item => ({ id: String(label.id), text: label.name, description: label.description ?? undefined, leadingVisual: swatch(label.color), label });
const matches = (label: Label, filter: string) => label.name.toLowerCase().includes(filter.trim().toLowerCase());

function useLabels(projectId: number, open: boolean) {
  const query = useQuery({ ...projectLabelsQuery(projectId), enabled: open });
  return { labels: query.data ?? [], loading: query.isPending && open, error: query.error };
}

/**
 * The sidebar's Labels picker: a searchable panel with checkboxes over the project's labels
 * (its own and its groups'); the selection is saved when the panel closes, as GitLab does.
 */
export function LabelsSelect({ projectId, selected, onChange, anchor = { text: 'Edit', label: 'Edit labels' } }: {
  projectId: number;
  selected: string[];
  onChange: (names: string[]) => void;
  /** the button that opens the panel: the sidebar's Edit, or a form's Select labels */
  anchor?: { text: string; label: string; dropdown?: boolean };
}) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const [draft, setDraft] = useState<string[] | null>(null);
  const { labels, loading, error } = useLabels(projectId, open);
  const items = useMemo(() => labels.filter((label) => matches(label, filter)).map(toItem), [labels, filter]);
  const current = draft ?? selected;
  const chosen = items.filter((item) => current.includes(item.label.name));
  return (
    <SelectPanel
      title="Select labels"
      inputLabel="Search labels"
      placeholderText="Search labels"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          if (draft !== null && (draft.length !== selected.length || draft.some((name) => !selected.includes(name)))) onChange(draft);
          setDraft(null);
          setFilter('');
        }
      }}
      renderAnchor={({ children: _children, ...anchorProps }) => (
        <Button {...anchorProps} size="small" variant={anchor.dropdown ? 'default' : 'invisible'} trailingAction={anchor.dropdown ? TriangleDownIcon : undefined} aria-label={anchor.label}>
          {anchor.text}
        </Button>
      )}
      items={items}
      selected={chosen}
      onSelectedChange={(next: SelectPanelItemInput[]) => {
        const visible = new Set(items.map((item) => item.label.name));
        // names hidden by the search stay as they were
        setDraft([...current.filter((name) => !visible.has(name)), ...next.map((item) => (item as Item).label.name)]);
      }}
      filterValue={filter}
      onFilterChange={setFilter}
      loading={loading}
      showSelectedOptionsFirst
      message={
        error
          ? { variant: 'error', title: 'Labels could not be loaded', body: errorMessage(error) }
          : items.length === 0 && !loading
            ? { variant: 'empty', title: 'No matching labels', body: filter ? `No label matches “${filter}”.` : 'This project has no labels yet.' }
            : undefined
      }
      width="medium"
    />
  );
}

/** One label for a list filter (its title); choosing the chosen one again clears it. */
export function LabelFilterSelect({ projectId, value, onChange }: { projectId: number; value: string | null; onChange: (name: string | null) => void }) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const { labels, loading, error } = useLabels(projectId, open);
  const items = labels.filter((label) => matches(label, filter)).map(toItem);
  return (
    <SelectPanel
      title="Label"
      inputLabel="Search labels"
      placeholderText="Search labels"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setFilter('');
      }}
      renderAnchor={({ children: _children, ...anchorProps }) => (
        <Button {...anchorProps} size="small" trailingAction={TriangleDownIcon} aria-label={value ? `Label: ${value}` : 'Label: any'}>
          Label{value ? `: ${value}` : ''}
        </Button>
      )}
      items={items}
      selected={items.find((item) => item.label.name === value)}
      onSelectedChange={(item: SelectPanelItemInput | undefined) => {
        const next = item ? (item as Item).label.name : null;
        onChange(next === value ? null : next);
        setOpen(false);
      }}
      filterValue={filter}
      onFilterChange={setFilter}
      loading={loading}
      message={error ? { variant: 'error', title: 'Labels could not be loaded', body: errorMessage(error) } : items.length === 0 && !loading ? { variant: 'empty', title: 'No matching labels', body: 'Try another search.' } : undefined}
      width="medium"
    />
  );
}
