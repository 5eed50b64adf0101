import { GitBranchIcon, TriangleDownIcon } from '@primer/octicons-react';
import { Button, SelectPanel, type SelectPanelItemInput } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { pickerLoading, pickerMessage, usePicker } from '../../components/Picker';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { branchListQuery } from '../branches';

/**
 * One of a project's branches, chosen from those that exist (GET /projects/:id/repository/branches,
 * searched on the server), never typed: the source and target of a merge request, and the branch a
 * Revert or Cherry-pick goes to. The shared picker (components/Picker) keeps its open state and search.
 */
export function BranchSelect({ projectId, value, onChange, label, size }: { projectId: number; value: string; onChange: (branch: string) => void; label: string; size?: 'small' | 'medium' }) {
  const picker = usePicker();
  const search = useDebouncedValue(picker.filter.trim());
  const branches = useQuery({ ...branchListQuery(projectId, { search, page: 1 }), enabled: picker.open });
  const items: (SelectPanelItemInput & { id: string })[] = (branches.data?.items ?? []).map((branch) => ({ id: branch.name, text: branch.name, leadingVisual: GitBranchIcon }));
  return (
    <SelectPanel
      title={label}
      inputLabel="Search branches"
      placeholder="Search branches"
      {...picker.panel}
      renderAnchor={({ children: _children, ...anchorProps }) => (
        <Button {...anchorProps} size={size} leadingVisual={GitBranchIcon} trailingAction={TriangleDownIcon} aria-label={`${label}: ${value || 'none'}`}>
          {value || 'Select branch'}
        </Button>
      )}
      items={items}
      selected={items.find((item) => item.text === value)}
      onSelectedChange={(item: SelectPanelItemInput | undefined) => {
        if (item?.text) onChange(item.text);
        picker.close();
      }}
      loading={pickerLoading(branches, picker.open)}
      message={pickerMessage({
        error: branches.error,
        errorTitle: 'Branches could not be loaded',
        empty: { title: 'No matching branches', body: picker.filter ? `No branch matches “${picker.filter}”.` : 'This project has no branches.' },
        isEmpty: items.length === 0 && !branches.isPending,
      })}
      width="medium"
    />
  );
}
