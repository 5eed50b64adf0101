import { Dialog, Link } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import type { MergeTrainMergeType } from './merge-moment';
import { MSG } from './messages';
import { RichMessage } from './RichMessage';

/** GitLab's help page on skipping the train, which both merge-now dialogs link to. */
export const MERGE_IMMEDIATELY_DOCS = 'https://docs.gitlab.com/ee/ci/pipelines/merge_trains.html#skip-the-merge-train-and-merge-immediately';

const docsLink = (text: string) => (
  <Link href={MERGE_IMMEDIATELY_DOCS} target="_blank" rel="noopener noreferrer">
    {text}
  </Link>
);

interface ConfirmProps {
  onCancel: () => void;
  onConfirm: () => void;
}

/**
 * 'Merge immediately' while a merge train strategy is preferred (GitLab's
 * merge_immediately_confirmation_dialog.vue): the merge bypasses the train and restarts its
 * pipelines. Cancel has the initial focus; the confirming button is a danger button.
 */
export function MergeImmediatelyDialog({ onCancel, onConfirm }: ConfirmProps) {
  return (
    <Dialog
      title={t(MSG.mergeImmediately)}
      onClose={onCancel}
      width="large"
      footerButtons={[
        { buttonType: 'default', content: t(MSG.cancel), onClick: onCancel, autoFocus: true },
        { buttonType: 'danger', content: t(MSG.mergeImmediately), onClick: onConfirm },
      ]}
    >
      <p>
        <RichMessage message={MSG.mergeImmediatelyBody} wraps={{ docsLink }} />
      </p>
      <p>{t(MSG.mergeImmediatelyConfirmation)}</p>
    </Dialog>
  );
}

/**
 * 'Merge now and restart train' / 'Merge now and don't restart train' (GitLab's
 * merge_train_restart_train_confirmation_dialog.vue): the title is also the confirming button.
 */
export function MergeTrainMergeTypeDialog({ type, onCancel, onConfirm }: ConfirmProps & { type: MergeTrainMergeType }) {
  const title = t(type === 'restart' ? MSG.restartTrain : MSG.skipTrain);
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      width="large"
      footerButtons={[
        { buttonType: 'default', content: t(MSG.cancel), onClick: onCancel, autoFocus: true },
        { buttonType: 'danger', content: title, onClick: onConfirm },
      ]}
    >
      <p>{type === 'restart' ? <RichMessage message={MSG.restartTrainInfo} wraps={{ docsLink }} /> : <RichMessage message={MSG.skipTrainInfo} wraps={{ link: docsLink }} />}</p>
    </Dialog>
  );
}

/** 'Start merge train' when the pipeline failed (GitLab's merge_train_failed_pipeline_confirmation_dialog.vue). */
export function TrainFailedPipelineDialog({ onCancel, onConfirm }: ConfirmProps) {
  return (
    <Dialog
      title={t(MSG.startMergeTrain)}
      onClose={onCancel}
      width="large"
      footerButtons={[
        { buttonType: 'default', content: t(MSG.cancel), onClick: onCancel, autoFocus: true },
        { buttonType: 'danger', content: t(MSG.startMergeTrain), onClick: onConfirm },
      ]}
    >
      <p>{t(MSG.trainFailedPipelineInfo)}</p>
      <p>{t(MSG.trainFailedPipelineConfirmation)}</p>
    </Dialog>
  );
}
