import { ToggleSwitch } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { errorMessage } from '../../lib/api-error';
import { codeOwnerApprovalMutation, settingsKeys, type ProtectedBranch } from './api';
import styles from './Settings.module.css';

/** The words of GitLab's protected branch setting (its protect form's checkbox). */
export const CODE_OWNER_APPROVAL = {
  label: 'Require approval from code owners',
  caption: "Merge requests into the branch need the approval of the code owners of the files they change (the CODEOWNERS file's sections).",
  listLabel: 'Code owner approval',
  error: 'Code owner approval could not be changed:',
} as const;

/**
 * A protected branch's "code owner approval required" as a switch in the protected branches
 * list (GitLab's 'Code owner approval' column): a PATCH of the branch, then the list reads again.
 */
export function CodeOwnerApprovalToggle({ projectId, branch }: { projectId: number; branch: ProtectedBranch }) {
  const queryClient = useQueryClient();
  const labelId = useId();
  const change = useMutation({
    ...codeOwnerApprovalMutation(projectId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.protectedBranches(projectId) }),
  });
  const required = change.isPending ? change.variables.required : branch.code_owner_approval_required === true;
  return (
    <span className={styles.inlineToggle}>
      <span aria-hidden="true">{CODE_OWNER_APPROVAL.listLabel}</span>
      {/* the switch's name says which branch, without a second text node naming it on the row */}
      <span id={labelId} aria-label={`${CODE_OWNER_APPROVAL.listLabel} for ${branch.name}`} hidden />
      <ToggleSwitch
        size="small"
        aria-labelledby={labelId}
        checked={required}
        loading={change.isPending}
        onClick={() => change.mutate({ name: branch.name, required: !required })}
      />
      {change.isError ? (
        <span role="alert" className={styles.inlineError}>
          {CODE_OWNER_APPROVAL.error} {errorMessage(change.error)}
        </span>
      ) : null}
    </span>
  );
}
