import { ChevronDownIcon, ChevronRightIcon } from '@primer/octicons-react';
import { Button, Flash } from '@primer/react';
import { useMutation } from '@tanstack/react-query';
import { t } from '@tributary/contracts/i18n';
import type { MergeRequestWidgetData } from '@tributary/contracts/merge-widget';
import { useId, useState } from 'react';
import { ApiError } from '../../../lib/api-error';
import widgetStyles from '../MergeWidget.module.css';
import { StatusIcon } from '../StatusIcon';
import { approveMutation, passwordRequired, unapproveMutation } from './api';
import { approvalAction, approvalOptional, approvalSummary } from './approvals-summary';
import { ApprovalPasswordDialog } from './ApprovalPasswordDialog';
import { ApprovalRulesTable } from './ApprovalRulesTable';
import { reviewerCandidates } from './assign-reviewers';
import { AssignReviewersDialog } from './AssignReviewersDialog';
import styles from './Approvals.module.css';
import { ApproverAvatars } from './ApproverAvatars';
import { APPROVALS_MSG as M } from './messages';
import { useApprovalStateSubscription } from './useApprovalStateSubscription';

export interface ApprovalsSectionProps {
  projectId: number;
  iid: number;
  data: MergeRequestWidgetData;
  /** the project forbids committers to approve */
  disableCommittersApproval: boolean;
  /** the signed-in user's username, or null for a visitor */
  me: string | null;
  /** the merge request's reviewers and author ('Assign reviewers' offers the other eligible approvers) */
  reviewerIds: readonly number[];
  authorId: number | null;
  /** refetch the widget after a change made here */
  onChanged: () => void;
  /**
   * refetch the widget on an approval state message: joining a refetch already under way (the
   * merge status subscription hears the same change), never restarting it
   */
  onLiveUpdate: () => void;
}

/**
 * The widget's approvals section (GitLab's approvals.vue): the summary, Approve or Revoke,
 * "Why can't I approve?" for committers, the password modal, and the collapsible rules table.
 * It reads the widget query's answer and refetches it on mergeRequestApprovalStateUpdated.
 */
export function ApprovalsSection({ projectId, iid, data, disableCommittersApproval, me, reviewerIds, authorId, onChanged, onLiveUpdate }: ApprovalsSectionProps) {
  const [expanded, setExpanded] = useState(false);
  const [explain, setExplain] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [modal, setModal] = useState<{ invalid: boolean } | null>(null);
  const [checkingPassword, setCheckingPassword] = useState(false);
  const [assigning, setAssigning] = useState(false);
  const rulesId = useId();
  useApprovalStateSubscription(data.id, onLiveUpdate);

  const approve = useMutation({
    ...approveMutation(projectId, iid),
    onSuccess: () => {
      setModal(null);
      setError(null);
      onChanged();
    },
    onError: (failure, input) => {
      // a wrong password keeps the modal open with its own message; anything else is the submit error
      if (input.approvalPassword !== undefined && failure instanceof ApiError && failure.status === 401) setModal({ invalid: true });
      else {
        setModal(null);
        setError(t(M.approveError));
      }
    },
  });
  const unapprove = useMutation({
    ...unapproveMutation(projectId, iid),
    onSuccess: () => {
      setError(null);
      onChanged();
    },
    onError: () => setError(t(M.unapproveError)),
  });

  const approvedBy = data.approvedBy.nodes;
  const rules = data.approvalState.rules;
  const approvedByMe = me !== null && approvedBy.some((user) => user.username === me);
  const action = me === null ? null : approvalAction({ canApprove: data.userPermissions.canApprove, approvedByMe, state: data.state });
  const summary = approvalSummary({ approved: data.approved, approvalsRequired: data.approvalsRequired, approvalsLeft: data.approvalsLeft, approvedBy, rules, me });
  const optional = approvalOptional(data);
  const committed = me !== null && (data.committers?.nodes ?? []).some((user) => user.username === me);
  const busy = approve.isPending || unapprove.isPending || checkingPassword;
  // GitLab: those who may administer the merge request get 'Assign reviewers' while approvers are available
  const candidates = data.userPermissions.adminMergeRequest && data.state === 'opened' ? reviewerCandidates(rules, reviewerIds, authorId) : [];

  async function startApprove() {
    setError(null);
    setCheckingPassword(true);
    let required: boolean;
    try {
      required = await passwordRequired(projectId, iid);
    } catch {
      // the approval data (whether a password is required) could not be read
      setError(t(M.fetchError));
      return;
    } finally {
      setCheckingPassword(false);
    }
    if (required) setModal({ invalid: false });
    else approve.mutate({ sha: data.diffHeadSha });
  }

  return (
    <div aria-label={t(M.heading)} role="group">
      <div className={widgetStyles.panel}>
        <StatusIcon status={data.approved && !optional ? 'success' : optional ? 'info' : 'warning'} />
        <div className={widgetStyles.panelBody}>
          <div className={styles.summary}>
            {action === 'approve' ? (
              <Button size="small" variant={data.approved && approvedBy.length > 0 ? 'default' : 'primary'} disabled={busy} onClick={() => void startApprove()}>
                {t(data.approved && approvedBy.length > 0 ? M.approveAdditionally : M.approve)}
              </Button>
            ) : null}
            {action === 'revoke' ? (
              <Button size="small" variant="danger" disabled={busy} onClick={() => unapprove.mutate()}>
                {t(M.revoke)}
              </Button>
            ) : null}
            {summary.left ? <span className={optional ? styles.muted : styles.strong}>{summary.left}</span> : null}
            {summary.approvedBy ? (
              <>
                <span className={summary.left ? undefined : styles.strong}>{summary.approvedBy}</span>
                <ApproverAvatars users={approvedBy} label={t(M.approvedBy)} />
              </>
            ) : null}
            {disableCommittersApproval && committed ? (
              <Button size="small" variant="invisible" aria-expanded={explain} onClick={() => setExplain((value) => !value)}>
                {t(M.whyCantApprove)}
              </Button>
            ) : null}
            {candidates.length > 0 ? (
              <Button size="small" onClick={() => setAssigning(true)}>
                {t(M.assignReviewers)}
              </Button>
            ) : null}
            {rules.length > 0 ? (
              <Button
                size="small"
                variant="invisible"
                leadingVisual={expanded ? ChevronDownIcon : ChevronRightIcon}
                aria-expanded={expanded}
                aria-controls={rulesId}
                onClick={() => setExpanded((value) => !value)}
              >
                {t(expanded ? M.hideRules : M.showRules)}
              </Button>
            ) : null}
          </div>
          {explain && disableCommittersApproval && committed ? <p className={styles.explain}>{t(M.committerCantApprove)}</p> : null}
          {error ? (
            <Flash variant="danger" role="alert">
              {error}
            </Flash>
          ) : null}
        </div>
      </div>
      {expanded && rules.length > 0 ? (
        <div id={rulesId}>
          <ApprovalRulesTable rules={rules} />
        </div>
      ) : null}
      {assigning ? (
        <AssignReviewersDialog
          projectId={projectId}
          iid={iid}
          candidates={candidates}
          reviewerIds={reviewerIds}
          onClose={() => setAssigning(false)}
          onAssigned={() => {
            setAssigning(false);
            onChanged();
          }}
        />
      ) : null}
      {modal ? (
        <ApprovalPasswordDialog
          invalid={modal.invalid}
          pending={approve.isPending}
          onCancel={() => setModal(null)}
          onApprove={(password) => approve.mutate({ sha: data.diffHeadSha, approvalPassword: password })}
        />
      ) : null}
    </div>
  );
}
