import { ActionList, ActionMenu, Button, IconButton } from '@primer/react';
import { TriangleDownIcon } from '@primer/octicons-react';
import { t } from '@tributary/contracts/i18n';
import { useState } from 'react';
import { confirmedStep, mergeButtonStep, mergeMomentItems, mergeMomentStep, type MergeConfirmation, type MergeFacts, type MergeStep } from './merge-moment';
import { MSG } from './messages';
import styles from './MergeWidget.module.css';
import { MergeImmediatelyDialog, MergeTrainMergeTypeDialog, TrainFailedPipelineDialog } from './MergeTrainDialogs';
import { UnverifiedChangesDialog } from './UnverifiedChangesDialog';

/**
 * The merge button, the merge-moment dropdown beside it (while auto-merge is available) with
 * the auto-merge helper text, and the confirmations a click may ask first (merge-moment.ts
 * decides which). `onMerge` merges now; `onAutoMerge` sends the preferred strategy.
 */
export function MergeActions({
  facts,
  skipTrainAllowed,
  buttonText,
  buttonVariant,
  disabled,
  merging,
  autoMergeHelper,
  onMerge,
  onAutoMerge,
  onRunPipeline,
  runningPipeline,
}: {
  facts: MergeFacts;
  skipTrainAllowed: boolean;
  buttonText: string;
  buttonVariant: 'danger' | 'primary';
  disabled: boolean;
  merging: boolean;
  /** the helper text beside the dropdown; null without auto-merge (then no dropdown either) */
  autoMergeHelper: string | null;
  onMerge: (skipMergeTrain: boolean) => void;
  onAutoMerge: () => void;
  onRunPipeline: () => void;
  runningPipeline: boolean;
}) {
  const [dialog, setDialog] = useState<MergeConfirmation | null>(null);
  const close = () => setDialog(null);

  function run(step: MergeStep) {
    if (step.kind === 'confirm') return setDialog(step.dialog);
    setDialog(null);
    if (step.kind === 'merge') onMerge(step.skipMergeTrain);
    else onAutoMerge();
  }
  const confirm = () => dialog && run(confirmedStep(dialog));

  return (
    <>
      <div className={styles.mergeActions}>
        <Button variant={buttonVariant} disabled={disabled} loading={merging} onClick={() => run(mergeButtonStep(facts))}>
          {buttonText}
        </Button>
        {autoMergeHelper !== null ? (
          <>
            {/* the merge-moment dropdown: merge now instead of when the checks pass */}
            <ActionMenu>
              <ActionMenu.Anchor>
                <IconButton icon={TriangleDownIcon} aria-label={t(MSG.mergeOptions)} variant={buttonVariant} disabled={disabled} />
              </ActionMenu.Anchor>
              <ActionMenu.Overlay width="medium">
                <ActionList>
                  {mergeMomentItems({ preferredStrategy: facts.preferredStrategy, skipTrainAllowed }).map((item) =>
                    item === 'mergeImmediately' ? (
                      <ActionList.Item key={item} onSelect={() => run(mergeMomentStep(item, facts))}>
                        {t(MSG.mergeImmediately)}
                      </ActionList.Item>
                    ) : (
                      <ActionList.Item key={item} onSelect={() => run(mergeMomentStep(item, facts))}>
                        <strong>{t(item === 'restart' ? MSG.restartTrain : MSG.skipTrain)}</strong>
                        <ActionList.Description variant="block">{t(item === 'restart' ? MSG.restartTrainHelp : MSG.skipTrainHelp)}</ActionList.Description>
                      </ActionList.Item>
                    ),
                  )}
                </ActionList>
              </ActionMenu.Overlay>
            </ActionMenu>
            <span className={styles.autoMergeHelper}>{autoMergeHelper}</span>
          </>
        ) : null}
      </div>
      {dialog?.kind === 'unverified' ? (
        <UnverifiedChangesDialog
          onCancel={close}
          onMerge={confirm}
          onRunPipeline={() => {
            close();
            onRunPipeline();
          }}
          runningPipeline={runningPipeline}
        />
      ) : null}
      {dialog?.kind === 'mergeImmediately' ? <MergeImmediatelyDialog onCancel={close} onConfirm={confirm} /> : null}
      {dialog?.kind === 'mergeTrainMergeType' ? <MergeTrainMergeTypeDialog type={dialog.type} onCancel={close} onConfirm={confirm} /> : null}
      {dialog?.kind === 'trainFailedPipeline' ? <TrainFailedPipelineDialog onCancel={close} onConfirm={confirm} /> : null}
    </>
  );
}
