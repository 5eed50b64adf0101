import { Button, Flash, Heading } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormError } from '../../../components/FormError';
import { approvalKeys, approvalRulesQuery, deleteRuleMutation, type ProjectApprovalRule } from './api';
import { ApprovalRuleDialog } from './ApprovalRuleDialog';

function branchesText(rule: ProjectApprovalRule): string {
  if (rule.applies_to_all_protected_branches) return 'All protected branches';
  if (rule.protected_branches.length === 0) return 'All branches';
  return rule.protected_branches.map((branch) => branch.name).join(', ');
}

function approversText(rule: ProjectApprovalRule): string {
  if (rule.rule_type === 'any_approver') return 'All eligible users';
  const names = [...rule.users.map((user) => user.name), ...rule.groups.map((group) => group.full_name)];
  return names.length === 0 ? 'None' : names.join(', ');
}

/** A project's approval rules with 'Add approval rule', and each rule's Edit and Delete. */
export function ApprovalRulesList({ projectId }: { projectId: number }) {
  const queryClient = useQueryClient();
  const rules = useQuery(approvalRulesQuery(projectId));
  const [editing, setEditing] = useState<ProjectApprovalRule | 'new' | null>(null);
  const remove = useMutation({
    ...deleteRuleMutation(projectId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: approvalKeys.rules(projectId) }),
  });
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <Heading as="h3" variant="small">
          Approval rules
        </Heading>
        <Button size="small" onClick={() => setEditing('new')}>
          Add approval rule
        </Button>
      </div>
      {rules.isPending ? <SkeletonBox height="64px" aria-label="Loading approval rules" /> : null}
      {rules.isError ? <FormError error={rules.error} title="The approval rules could not be loaded." /> : null}
      {remove.error ? <FormError error={remove.error} title="The rule could not be deleted." /> : null}
      {rules.data?.length === 0 ? <Flash>No approval rules yet. Approval is optional.</Flash> : null}
      {rules.data && rules.data.length > 0 ? (
        <table aria-label="Approval rules" style={{ width: '100%', borderCollapse: 'collapse' }}>
          <thead>
            <tr style={{ textAlign: 'left' }}>
              <th scope="col">Rule</th>
              <th scope="col">Approvers</th>
              <th scope="col">Target branch</th>
              <th scope="col">Approvals required</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.data.map((rule) => (
              <tr key={rule.id} style={{ borderTop: '1px solid var(--borderColor-muted)' }}>
                <td>{rule.name}</td>
                <td>{approversText(rule)}</td>
                <td>{branchesText(rule)}</td>
                <td>{rule.approvals_required}</td>
                <td>
                  <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
                  <Button size="small" aria-label={`Edit ${rule.name}`} onClick={() => setEditing(rule)}>
                    Edit
                  </Button>
                  <Button size="small" variant="danger" aria-label={`Delete ${rule.name}`} disabled={remove.isPending} onClick={() => remove.mutate(rule.id)}>
                    Delete
                  </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {editing ? <ApprovalRuleDialog projectId={projectId} rule={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}
