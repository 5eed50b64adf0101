import { Checkbox, CheckboxGroup, Dialog, Flash, FormControl } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { t } from '@tributary/contracts/i18n';
import type { WidgetUser } from '@tributary/contracts/merge-widget';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { mergeRequestKeys, updateMergeRequestMutation } from '../../merge-requests';
import { userIdOf } from './assign-reviewers';
import { APPROVALS_MSG as M } from './messages';

/**
 * 'Assign reviewers' from the approvals section: the rules' eligible approvers who are not
 * reviewers yet, to pick from; the choice is added to the current reviewers through the merge
 * request update (`reviewer_ids`), the same path as the sidebar's reviewers picker.
 */
export function AssignReviewersDialog({
  projectId,
  iid,
  candidates,
  reviewerIds,
  onClose,
  onAssigned,
}: {
  projectId: number;
  iid: number;
  candidates: readonly WidgetUser[];
  reviewerIds: readonly number[];
  onClose: () => void;
  onAssigned: () => void;
}) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<number[]>([]);
  const update = useMutation({
    ...updateMergeRequestMutation(projectId, iid),
    onSuccess: (updated) => {
      queryClient.setQueryData(mergeRequestKeys.detail(projectId, iid), updated);
      void queryClient.invalidateQueries({ queryKey: mergeRequestKeys.lists() });
      onAssigned();
    },
  });
  const assign = () => {
    if (chosen.length > 0 && !update.isPending) update.mutate({ reviewer_ids: [...reviewerIds, ...chosen] });
  };
  return (
    <Dialog
      title={t(M.assignReviewers)}
      onClose={onClose}
      width="medium"
      footerButtons={[
        { buttonType: 'default', content: t(M.cancel), onClick: onClose },
        { buttonType: 'primary', content: t(M.assignReviewers), onClick: assign, disabled: chosen.length === 0 || update.isPending, loading: update.isPending },
      ]}
    >
      {update.isError ? (
        <Flash variant="danger" role="alert">
          {t(M.assignReviewersError)} {errorMessage(update.error)}
        </Flash>
      ) : null}
      <CheckboxGroup>
        <CheckboxGroup.Label>{t(M.assignReviewersLabel)}</CheckboxGroup.Label>
        {candidates.map((user) => {
          const id = userIdOf(user);
          return (
            <FormControl key={user.id}>
              <Checkbox value={String(id)} checked={chosen.includes(id)} onChange={(event) => setChosen((current) => (event.target.checked ? [...current, id] : current.filter((other) => other !== id)))} />
              <FormControl.Label>
                {user.name} <span className="fgMuted">@{user.username}</span>
              </FormControl.Label>
            </FormControl>
          );
        })}
      </CheckboxGroup>
    </Dialog>
  );
}
