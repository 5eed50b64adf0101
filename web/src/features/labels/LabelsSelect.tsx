import { SelectPanel, type SelectPanelItemInput } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { type PickerAnchor, filterAnchor, pickerAnchor, pickerLoading, pickerMessage, toggledChoice, usePicker } from '../../components/Picker';
import type { Label } from '../../lib/gitlab-types';
import { projectLabelsQuery } from './api';
import { safeColor } from './label-parts';

type Item = SelectPanelItemInput & { id: string; label: Label };

const swatch = (color: string) => () => <span aria-hidden style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 6, backgroundColor: safeColor(color) }} />;
const toItem = (label: Label): Item => ({ id: String(label.id), text: label.name, description: label.description ?? undefined, leadingVisual: swatch(label.color), label });
const matches = (label: Label, filter: string) => label.name.toLowerCase().includes(filter.trim().toLowerCase());

function useLabels(projectId: number, open: boolean) {
  const query = useQuery({ ...projectLabelsQuery(projectId), enabled: open });
  return { labels: query.data ?? [], loading: pickerLoading(query, open), error: query.error };
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
  anchor?: PickerAnchor;
}) {
  const [draft, setDraft] = useState<string[] | null>(null);
  const picker = usePicker(() => {
    if (draft !== null && (draft.length !== selected.length || draft.some((name) => !selected.includes(name)))) onChange(draft);
    setDraft(null);
  });
  const { filter } = picker;
  const { labels, loading, error } = useLabels(projectId, picker.open);
  const items = useMemo(() => labels.filter((label) => matches(label, filter)).map(toItem), [labels, filter]);
  const current = draft ?? selected;
  const chosen = items.filter((item) => current.includes(item.label.name));
  return (
    <SelectPanel
      title="Select labels"
      inputLabel="Search labels"
      placeholderText="Search labels"
      {...picker.panel}
      renderAnchor={pickerAnchor(anchor)}
      items={items}
      selected={chosen}
      onSelectedChange={(next: SelectPanelItemInput[]) => {
        const visible = new Set(items.map((item) => item.label.name));
        // names hidden by the search stay as they were
        setDraft([...current.filter((name) => !visible.has(name)), ...next.map((item) => (item as Item).label.name)]);
      }}
      loading={loading}
      showSelectedOptionsFirst
      message={pickerMessage({
        error,
        errorTitle: 'Labels could not be loaded',
        empty: { title: 'No matching labels', body: filter ? `No label matches “${filter}”.` : 'This project has no labels yet.' },
        isEmpty: items.length === 0 && !loading,
      })}
      width="medium"
    />
  );
}

/** One label for a list filter (its title); choosing the chosen one again clears it. */
export function LabelFilterSelect({ projectId, value, onChange }: { projectId: number; value: string | null; onChange: (name: string | null) => void }) {
  const picker = usePicker();
  const { labels, loading, error } = useLabels(projectId, picker.open);
  const items = labels.filter((label) => matches(label, picker.filter)).map(toItem);
  return (
    <SelectPanel
      title="Label"
      inputLabel="Search labels"
      placeholderText="Search labels"
      {...picker.panel}
      renderAnchor={filterAnchor(value ? `Label: ${value}` : 'Label: any', `Label${value ? `: ${value}` : ''}`)}
      items={items}
      selected={items.find((item) => item.label.name === value)}
      onSelectedChange={(item: SelectPanelItemInput | undefined) => {
        const next = item ? (item as Item).label.name : null;
        onChange(toggledChoice(value, next));
        picker.close();
      }}
      loading={loading}
      message={pickerMessage({ error, errorTitle: 'Labels could not be loaded', empty: { title: 'No matching labels', body: 'Try another search.' }, isEmpty: items.length === 0 && !loading })}
      width="medium"
    />
  );
}
