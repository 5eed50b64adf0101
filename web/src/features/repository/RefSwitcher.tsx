import { GitBranchIcon, TagIcon, TriangleDownIcon } from '@primer/octicons-react';
import { Button, SelectPanel, type SelectPanelItemProps } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { pickerLoading, pickerMessage, usePicker } from '../../components/Picker';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { branchListQuery, tagListQuery } from '../branches';
import styles from './RefSwitcher.module.css';

type Item = SelectPanelItemProps & { groupId: string; id: string };

/** Switch branch or tag: a searchable panel with Branches and Tags groups (server-side search). */
export function RefSwitcher({ projectId, current, onSelect }: { projectId: number; current: string; onSelect: (ref: string) => void }) {
  const picker = usePicker();
  const { open, filter } = picker;
  const search = useDebouncedValue(filter.trim());
  const branches = useQuery({ ...branchListQuery(projectId, { search, page: 1 }), enabled: open });
  const tags = useQuery({ ...tagListQuery(projectId, search), enabled: open });

  const items = useMemo<Item[]>(
    () => [
      ...(branches.data?.items ?? []).map((b) => ({ id: `branch:${b.name}`, text: b.name, groupId: 'branches', leadingVisual: GitBranchIcon })),
      ...(tags.data?.items ?? []).map((t) => ({ id: `tag:${t.name}`, text: t.name, groupId: 'tags', leadingVisual: TagIcon })),
    ],
    [branches.data, tags.data],
  );
  const selected = items.find((item) => item.text === current);
  const failure = branches.error ?? tags.error;

  return (
    <SelectPanel
      title="Switch branch/tag"
      inputLabel="Search branches and tags"
      placeholderText="Search branches and tags"
      {...picker.panel}
      renderAnchor={({ children: _children, ...anchorProps }) => (
        <Button {...anchorProps} leadingVisual={GitBranchIcon} trailingAction={TriangleDownIcon} aria-label={`Switch branch/tag, current: ${current}`}>
          <span className={styles.refName}>{current}</span>
        </Button>
      )}
      items={items}
      groupMetadata={[
        { groupId: 'branches', header: { title: 'Branches', variant: 'filled' } },
        { groupId: 'tags', header: { title: 'Tags', variant: 'filled' } },
      ]}
      selected={selected}
      onSelectedChange={(item: SelectPanelItemProps | undefined) => {
        if (item?.text && item.text !== current) onSelect(item.text);
        picker.close();
      }}
      loading={pickerLoading({ isPending: branches.isPending || tags.isPending }, open)}
      message={pickerMessage({
        error: failure,
        errorTitle: 'Branches and tags could not be loaded',
        empty: { title: 'No matching results', body: filter ? `No branch or tag matches “${filter}”.` : 'This repository has no branches or tags.' },
        isEmpty: items.length === 0,
      })}
      width="medium"
    />
  );
}
