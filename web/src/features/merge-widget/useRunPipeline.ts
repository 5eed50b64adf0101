import { useMutation } from '@tanstack/react-query';
import { t } from '@tributary/contracts/i18n';
import { ApiError } from '../../lib/api-error';
import { runPipelineMutation } from './api';
import { MSG } from './messages';
import { PIPELINE_DOCS } from './pipeline-rules';
import type { WidgetAlert } from './WidgetAlert';

/** The alert a failed 'Run pipeline' shows: GitLab's permission text for a refusal, else its generic error. */
export function runPipelineErrorAlert(error: unknown): WidgetAlert {
  const forbidden = error instanceof ApiError && (error.status === 401 || error.status === 403);
  return {
    variant: 'danger',
    text: t(forbidden ? MSG.runPipelineForbidden : MSG.runPipelineError),
    link: { text: t(MSG.learnMore), href: PIPELINE_DOCS.runPipelinePermissions },
  };
}

/**
 * 'Run pipeline' (the retarget message and the merge-unverified-changes dialog): POST
 * …/merge_requests/:iid/pipelines, then the widget reads the new pipeline.
 */
export function useRunPipeline(input: { projectId: number; iid: number; onAlert: (alert: WidgetAlert | null) => void; onStarted: () => void }) {
  const { onAlert, onStarted } = input;
  const run = useMutation({
    ...runPipelineMutation(input.projectId, input.iid),
    onMutate: () => onAlert(null),
    onSuccess: () => onStarted(),
    onError: (error) => onAlert(runPipelineErrorAlert(error)),
  });
  return { run: () => run.mutate(), running: run.isPending };
}
