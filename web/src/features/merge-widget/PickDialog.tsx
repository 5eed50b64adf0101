import { Checkbox, Dialog, Flash, FormControl } from '@primer/react';
import { useMutation } from '@tanstack/react-query';
import { t } from '@tributary/contracts/i18n';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../lib/api-error';
import { urls } from '../../lib/routes';
import { BranchSelect } from '../merge-requests';
import styles from './MergeWidget.module.css';
import { PICK_MSG } from './panels/pick-messages';
import { runPick, type PickKind } from './pick';
import { pickCalls, pickIntoNewMergeRequest } from './pick-api';

/**
 * GitLab's Revert / Cherry-pick modal for a merged merge request: the branch to apply the
 * change to and "Start a new merge request with these changes" (checked). Done with a new
 * merge request, it opens it; done on the branch itself, it closes. A user who cannot push gets
 * the branch in their fork and always a merge request from it (GitLab's CreatesCommit).
 */
export function PickDialog({
  kind,
  sha,
  projectId,
  fullPath,
  defaultBranch,
  canPush,
  onClose,
}: {
  kind: PickKind;
  sha: string;
  projectId: number;
  fullPath: string;
  defaultBranch: string;
  canPush: boolean;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const [branch, setBranch] = useState(defaultBranch);
  const [startMergeRequest, setStartMergeRequest] = useState(true);
  const pick = useMutation({
    // Without push rights the server makes the branch in the caller's fork, always with a merge request.
    mutationFn: async () =>
      canPush
        ? runPick(pickCalls(projectId), { kind, sha, targetBranch: branch.trim(), startMergeRequest })
        : { mergeRequest: (await pickIntoNewMergeRequest(projectId, kind, sha, branch.trim())).merge_request },
    onSuccess: (done) => {
      if ('mergeRequest' in done) navigate(urls.mergeRequest(fullPath, done.mergeRequest.iid));
      else onClose();
    },
  });
  const revert = kind === 'revert';
  const branchLabel = t(revert ? PICK_MSG.revertBranchLabel : PICK_MSG.cherryPickBranchLabel);
  const action = t(revert ? PICK_MSG.revert : PICK_MSG.cherryPick);
  const error = pick.error instanceof ApiError ? pick.error.message : pick.error ? String(pick.error) : null;
  return (
    <Dialog
      title={t(revert ? PICK_MSG.revertTitle : PICK_MSG.cherryPickTitle)}
      onClose={onClose}
      width="medium"
      footerButtons={[
        { buttonType: 'default', content: t(PICK_MSG.cancel), onClick: onClose },
        {
          buttonType: 'primary',
          content: action,
          onClick: () => pick.mutate(),
          disabled: branch.trim() === '' || pick.isPending,
          loading: pick.isPending,
        },
      ]}
    >
      {canPush ? null : (
        <Flash variant="default" className={styles.pickNote}>
          {t(PICK_MSG.inFork)}
        </Flash>
      )}
      {/* the target is one of the project's branches, chosen from those that exist (GitLab's branch dropdown) */}
      <div className={styles.pickBranch}>
        <span>{branchLabel}</span>
        <BranchSelect projectId={projectId} value={branch} onChange={setBranch} label={branchLabel} />
      </div>
      {canPush ? (
        <FormControl className={styles.pickOption}>
          <Checkbox checked={startMergeRequest} onChange={(event) => setStartMergeRequest(event.target.checked)} />
          <FormControl.Label>{t(PICK_MSG.startMergeRequest)}</FormControl.Label>
        </FormControl>
      ) : null}
      {error ? (
        <Flash variant="danger" role="alert" className={styles.pickOption}>
          {error}
        </Flash>
      ) : null}
    </Dialog>
  );
}
