import { GitBranchIcon, TriangleDownIcon } from '@primer/octicons-react';
import { Button, SelectPanel, type SelectPanelItemInput } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { errorMessage } from '../../lib/api-error';
import { branchListQuery } from '../branches';

/** A branch of one project, searched on the server. */
export function BranchSelect({ projectId, value, onChange, label, size }: { projectId: number; value: string; onChange: (branch: string) => void; label: string; size?: 'small' | 'medium' }) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const search = useDebouncedValue(filter.trim());
  const branches = useQuery({ ...branchListQuery(projectId, { search, page: 1 }), enabled: open });
  const items: (SelectPanelItemInput & { id: string })[] = (branches.data?.items ?? []).map((branch) => ({ id: branch.name, text: branch.name, leadingVisual: GitBranchIcon }));
  return (
    <SelectPanel
      title={label}
      inputLabel="Search branches"
      placeholder="Search branches"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setFilter('');
      }}
      renderAnchor={({ children: _children, ...anchorProps }) => (
        <Button {...anchorProps} size={size} leadingVisual={GitBranchIcon} trailingAction={TriangleDownIcon} aria-label={`${label}: ${value || 'none'}`}>
          {value || 'Select branch'}
        </Button>
      )}
      items={items}
      selected={items.find((item) => item.text === value)}
      onSelectedChange={(item: SelectPanelItemInput | undefined) => {
        if (item?.text) onChange(item.text);
        setOpen(false);
      }}
      filterValue={filter}
      onFilterChange={setFilter}
      loading={branches.isPending && open}
      message={
        branches.error
          ? { variant: 'error', title: 'Branches could not be loaded', body: errorMessage(branches.error) }
          : items.length === 0 && !branches.isPending
            ? { variant: 'empty', title: 'No matching branches', body: filter ? `No branch matches “${filter}”.` : 'This project has no branches.' }
            : undefined
      }
      width="medium"
    />
  );
}
