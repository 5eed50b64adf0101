import { Checkbox, Dialog, FormControl, Radio, RadioGroup, TextInput } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormError } from '../../../components/FormError';
import type { UserBasic } from '../../../lib/gitlab-types';
import { UsersSelect } from '../../merge-requests';
import { protectedBranchesQuery } from '../api';
import { approvalKeys, saveRuleMutation, type ProjectApprovalRule } from './api';
import { GroupsSelect } from './GroupsSelect';

type BranchScope = 'all' | 'protected' | 'selected';

function scopeOf(rule: ProjectApprovalRule | null): BranchScope {
  if (!rule) return 'all';
  if (rule.applies_to_all_protected_branches) return 'protected';
  return rule.protected_branches.length > 0 ? 'selected' : 'all';
}

/**
 * 'Add approval rule' / 'Edit approval rule': the rule's name, approvals required, its approvers
 * (users and groups) and the target branches (all, all protected, or chosen protected branches).
 */
export function ApprovalRuleDialog({ projectId, rule, onClose }: { projectId: number; rule: ProjectApprovalRule | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(rule?.name ?? '');
  const [required, setRequired] = useState(String(rule?.approvals_required ?? 1));
  const [users, setUsers] = useState<UserBasic[]>(rule?.users ?? []);
  const [groups, setGroups] = useState<ProjectApprovalRule['groups']>(rule?.groups ?? []);
  const [scope, setScope] = useState<BranchScope>(scopeOf(rule));
  const [branchIds, setBranchIds] = useState<number[]>(rule?.protected_branches.map((branch) => branch.id) ?? []);
  const [touched, setTouched] = useState(false);
  const branches = useQuery(protectedBranchesQuery(projectId));
  const save = useMutation({
    ...saveRuleMutation(projectId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: approvalKeys.rules(projectId) });
      onClose();
    },
  });

  const count = Number(required);
  const nameError = touched && name.trim() === '' ? 'Please provide a name.' : null;
  const countError = touched && (!Number.isInteger(count) || count < 0) ? 'Please enter a non-negative number.' : null;

  function submit() {
    setTouched(true);
    if (name.trim() === '' || !Number.isInteger(count) || count < 0) return;
    save.mutate({
      id: rule?.id ?? null,
      input: {
        name: name.trim(),
        approvals_required: count,
        user_ids: users.map((user) => user.id),
        group_ids: groups.map((group) => group.id),
        protected_branch_ids: scope === 'selected' ? branchIds : [],
        applies_to_all_protected_branches: scope === 'protected',
      },
    });
  }

  return (
    <Dialog
      title={rule ? 'Edit approval rule' : 'Add approval rule'}
      onClose={onClose}
      width="large"
      footerButtons={[
        { buttonType: 'default', content: 'Cancel', onClick: onClose },
        { buttonType: 'primary', content: 'Save changes', onClick: submit, loading: save.isPending },
      ]}
    >
      <form
        style={{ display: 'flex', flexDirection: 'column', gap: 16 }}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        {save.error ? <FormError error={save.error} title="The rule could not be saved." /> : null}
        <FormControl required>
          <FormControl.Label>Rule name</FormControl.Label>
          <TextInput value={name} onChange={(event) => setName(event.target.value)} block validationStatus={nameError ? 'error' : undefined} />
          {nameError ? <FormControl.Validation variant="error">{nameError}</FormControl.Validation> : null}
        </FormControl>
        <FormControl required>
          <FormControl.Label>Required number of approvals</FormControl.Label>
          <TextInput type="number" min={0} value={required} onChange={(event) => setRequired(event.target.value)} validationStatus={countError ? 'error' : undefined} />
          {countError ? <FormControl.Validation variant="error">{countError}</FormControl.Validation> : null}
        </FormControl>
        <FormControl>
          <FormControl.Label>Users</FormControl.Label>
          <UsersSelect label="Approver users" projectId={projectId} selected={users} onChange={setUsers} emptyText="Select users" />
        </FormControl>
        <FormControl>
          <FormControl.Label>Groups</FormControl.Label>
          <GroupsSelect label="Approver groups" selected={groups} onChange={setGroups} />
        </FormControl>
        <RadioGroup name="approval-rule-branches" onChange={(value) => value && setScope(value as BranchScope)}>
          <RadioGroup.Label>Target branch</RadioGroup.Label>
          <FormControl>
            <Radio value="all" checked={scope === 'all'} />
            <FormControl.Label>All branches</FormControl.Label>
          </FormControl>
          <FormControl>
            <Radio value="protected" checked={scope === 'protected'} />
            <FormControl.Label>All protected branches</FormControl.Label>
          </FormControl>
          <FormControl>
            <Radio value="selected" checked={scope === 'selected'} />
            <FormControl.Label>Selected protected branches</FormControl.Label>
          </FormControl>
        </RadioGroup>
        {scope === 'selected' ? (
          <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
            <legend className="visually-hidden">Protected branches</legend>
            {branches.isError ? <FormError error={branches.error} title="Protected branches could not be loaded." /> : null}
            {branches.data?.length === 0 ? <p>This project has no protected branches.</p> : null}
            {branches.data?.map((branch) => (
              <FormControl key={branch.id}>
                <Checkbox
                  checked={branchIds.includes(branch.id)}
                  onChange={(event) => setBranchIds((ids) => (event.target.checked ? [...ids, branch.id] : ids.filter((id) => id !== branch.id)))}
                />
                <FormControl.Label>{branch.name}</FormControl.Label>
              </FormControl>
            ))}
          </fieldset>
        ) : null}
      </form>
    </Dialog>
  );
}
