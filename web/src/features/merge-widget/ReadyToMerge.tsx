import { Button, Checkbox, FormControl } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import type { MergeRequestWidgetData, MergeRequestWidgetProject } from '@tributary/contracts/merge-widget';
import { useState } from 'react';
import { commitSummary } from './commit-summary';
import { CommitMessageEditor } from './CommitMessageEditor';
import { DivergenceLine } from './DivergenceLine';
import { MergeActions } from './MergeActions';
import {
  autoMergeTexts,
  isMergeButtonDisabled,
  mergeButtonText,
  mergePayload,
  readyStatus,
  shouldShowMergeControls,
  squashSettings,
  withServerDefault,
  type EditableMessage,
  type MergeRequestPayload,
} from './merge-button';
import { MSG } from './messages';
import styles from './MergeWidget.module.css';
import { RichMessage } from './RichMessage';
import { SquashOption } from './SquashOption';
import { isPipelineFailed, mergeButtonVariant, pipelinePreventsMerge } from './pipeline-rules';
import type { WidgetAlert } from './WidgetAlert';
import type { WidgetStateName } from './widget-state';
import branchName from '../../components/BranchName.module.css';

const UNTOUCHED: EditableMessage = { value: '', touched: false };

/**
 * The ready-to-merge panel: for users who can merge a request in the
 * readyToMerge state, the options (delete source branch, squash, edit commit messages), the
 * merge details and the Merge button; otherwise the merge details, with the Merge button
 * disabled for users who could merge once the checks above pass.
 */
export function ReadyToMerge({
  data,
  project,
  projectId,
  state,
  merging,
  onMerge,
  onAutoMerge,
  onRebaseScheduled,
  onRefetch,
  onAlert,
  onRunPipeline,
  runningPipeline,
}: {
  data: MergeRequestWidgetData;
  project: MergeRequestWidgetProject;
  /** The target project's REST id (the rebase call). */
  projectId: number;
  state: WidgetStateName | null;
  merging: boolean;
  onMerge: (payload: MergeRequestPayload) => void;
  /** 'Set to auto-merge': the merge call with the preferred strategy */
  onAutoMerge: (payload: MergeRequestPayload) => void;
  onRebaseScheduled: () => void;
  onRefetch: () => void;
  onAlert: (alert: WidgetAlert) => void;
  onRunPipeline: () => void;
  runningPipeline: boolean;
}) {
  const canMerge = data.userPermissions.canMerge;
  const ffOnly = project.mergeRequestsFfOnlyEnabled || project.mergeMethod === 'FF';
  const squash = squashSettings({ squashReadOnly: data.squashReadOnly, squashOnMerge: data.squashOnMerge, squash: data.squash, squashOption: project.squashOption });
  const [removeSourceBranch, setRemoveSourceBranch] = useState(Boolean(data.shouldRemoveSourceBranch || data.forceRemoveSourceBranch));
  const [squashChosen, setSquashChosen] = useState(squash.initial);
  const [editMessages, setEditMessages] = useState(false);
  // State holds only what the user typed; an untouched message is the server's current
  // default, derived while rendering (defaults replace only messages not touched).
  const [mergeEdit, setMergeEdit] = useState<EditableMessage>(UNTOUCHED);
  const [squashEdit, setSquashEdit] = useState<EditableMessage>(UNTOUCHED);
  const mergeMessage = withServerDefault(mergeEdit, data.defaultMergeCommitMessage);
  const squashMessage = withServerDefault(squashEdit, data.defaultSquashCommitMessage);
  // A read-only squash follows the project (derived, not copied): it cannot be chosen.
  const squashChecked = squash.readOnly ? squash.initial : squashChosen;

  const showControls = shouldShowMergeControls({ canMerge, autoMergeEnabled: data.autoMergeEnabled, state });
  // the preferred auto-merge strategy (GitLab's fixed priority; the server lists what is available)
  const autoMerge = canMerge ? autoMergeTexts(data.preferredAutoMergeStrategy) : null;
  const squashing = squash.available && squashChecked;
  const showSquashEditor = squashing;
  const showMergeEditor = !ffOnly;
  const status = readyStatus({ hasCi: data.hasCi, pipelineStatus: data.headPipeline?.status ?? null, onlyAllowMergeIfPipelineSucceeds: project.onlyAllowMergeIfPipelineSucceeds, autoMergeAvailable: autoMerge !== null });
  const pipelineFailed = isPipelineFailed(data.headPipeline?.status);
  const buttonText = mergeButtonText({ mergingImmediately: false, autoMergeText: autoMerge ? t(autoMerge.button) : null, status, pipelineFailed });
  const buttonVariant = mergeButtonVariant({ status, pipelineFailed });
  const disabled = isMergeButtonDisabled({
    mergeMessage: mergeMessage.value,
    squashMessage: squashMessage.value,
    showMergeEditor,
    showSquashEditor,
    showMergeControls: showControls,
    requestInProgress: merging,
    preventMerge: pipelinePreventsMerge({ onlyAllowMergeIfPipelineSucceeds: project.onlyAllowMergeIfPipelineSucceeds, pipeline: data.headPipeline, detailedMergeStatus: data.detailedMergeStatus }),
  });
  const summary = commitSummary({ state: data.state, ffOnly, squash: squashing, commitCount: data.commitCount });

  function payload(skipMergeTrain: boolean) {
    return mergePayload({
        sha: data.diffHeadSha ?? '',
        removeSourceBranch: removeSourceBranch && data.userPermissions.removeSourceBranch,
        squash: squashing,
        squashAvailable: squash.available,
        squashMessage,
        mergeMessage,
        ffOnly,
        skipMergeTrain,
      });
  }

  const details = (
    <ul className={styles.details}>
      <DivergenceLine data={data} fullPath={project.fullPath} projectId={projectId} onRebaseScheduled={onRebaseScheduled} onRefetch={onRefetch} onAlert={onAlert} />
      <li>
        <RichMessage
          message={summary.message}
          values={summary.values}
          slots={{ targetBranch: <span className={branchName.branch}>{data.targetBranch}</span> }}
        />
      </li>
      {!showControls ? <li>{t(removeSourceBranch ? MSG.sourceBranchWillBeDeleted : MSG.sourceBranchWillNotBeDeleted)}</li> : null}
    </ul>
  );

  if (!showControls) {
    return (
      // 'Merge details' heads the panel of a merged or closed request only (GitLab), not this one
      <div className={styles.ready} role="group" aria-label="Merge options">
        <div>{details}</div>
        {canMerge ? (
          <div>
            <Button variant={buttonVariant} disabled>
              {buttonText}
            </Button>
          </div>
        ) : null}
      </div>
    );
  }

  return (
    <div className={styles.ready} role="group" aria-label="Merge options">
      <div className={styles.options}>
        {data.userPermissions.removeSourceBranch ? (
          <FormControl disabled={merging}>
            <Checkbox checked={removeSourceBranch} onChange={(event) => setRemoveSourceBranch(event.target.checked)} />
            <FormControl.Label>{t(MSG.deleteSourceBranch)}</FormControl.Label>
          </FormControl>
        ) : null}
        {squash.available ? <SquashOption checked={squashChecked} readOnly={squash.readOnly} onChange={setSquashChosen} /> : null}
        {showSquashEditor || showMergeEditor ? (
          <FormControl>
            <Checkbox checked={editMessages} onChange={(event) => setEditMessages(event.target.checked)} />
            <FormControl.Label>{t(MSG.editCommitMessage)}</FormControl.Label>
          </FormControl>
        ) : null}
      </div>
      {editMessages ? (
        <div className={styles.editors}>
          {showSquashEditor ? <CommitMessageEditor label={t(MSG.squashCommitMessage)} value={squashMessage.value} onChange={(value) => setSquashEdit({ value, touched: true })} /> : null}
          {showMergeEditor ? <CommitMessageEditor label={t(MSG.mergeCommitMessage)} value={mergeMessage.value} onChange={(value) => setMergeEdit({ value, touched: true })} /> : null}
        </div>
      ) : null}
      {details}
      <MergeActions
        facts={{ preferredStrategy: autoMerge ? data.preferredAutoMergeStrategy : null, status, pipelineFailed, retargeted: data.retargeted }}
        skipTrainAllowed={project.ciCdSettings?.mergeTrainsSkipTrainAllowed === true}
        buttonText={buttonText}
        buttonVariant={buttonVariant}
        disabled={disabled}
        merging={merging}
        autoMergeHelper={autoMerge ? t(autoMerge.helper) : null}
        onMerge={(skipMergeTrain) => onMerge(payload(skipMergeTrain))}
        onAutoMerge={() => onAutoMerge({ ...payload(false), auto_merge_strategy: data.preferredAutoMergeStrategy! })}
        onRunPipeline={onRunPipeline}
        runningPipeline={runningPipeline}
      />
    </div>
  );
}
