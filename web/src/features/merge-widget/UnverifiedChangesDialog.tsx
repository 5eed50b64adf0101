import { Dialog } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { MSG } from './messages';

/**
 * 'Merge unverified changes?' (GitLab's merge_failed_pipeline_confirmation_dialog.vue): asks
 * before a merge whose pipeline failed, or whose target branch changed, "Are you sure you want
 * to attempt to merge?". Cancel has the initial focus; 'Run pipeline' runs a new one instead.
 */
export function UnverifiedChangesDialog({ onCancel, onMerge, onRunPipeline, runningPipeline }: { onCancel: () => void; onMerge: () => void; onRunPipeline: () => void; runningPipeline: boolean }) {
  return (
    <Dialog
      title={t(MSG.unverifiedTitle)}
      onClose={onCancel}
      width="large"
      footerButtons={[
        { buttonType: 'default', content: t(MSG.cancel), onClick: onCancel, autoFocus: true },
        { buttonType: 'default', content: t(MSG.mergeUnverified), onClick: onMerge },
        { buttonType: 'primary', content: t(MSG.runPipeline), onClick: onRunPipeline, loading: runningPipeline },
      ]}
    >
      <p>{t(MSG.unverifiedInfo)}</p>
      <p>{t(MSG.unverifiedConfirmation)}</p>
    </Dialog>
  );
}
