import { XIcon } from '@primer/octicons-react';
import { IconButton, Link } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { t } from '@tributary/contracts/i18n';
import { LinkButton } from '../../components/AppLink';
import { urls } from '../../lib/routes';
import { calloutsQuery, dismissCalloutMutation } from './api';
import { MSG } from './messages';
import styles from './MergeWidget.module.css';
import { PIPELINE_DOCS, SUGGEST_PIPELINE_CALLOUT } from './pipeline-rules';
import { RichMessage } from './RichMessage';
import { StatusIcon } from './StatusIcon';

/**
 * "Looks like there's no pipeline here." (GitLab's mr_widget_suggest_pipeline.vue): for a project
 * without CI, to someone who may push to the source branch, a link to the New file form with a
 * `.gitlab-ci.yml` on that branch. Dismissing it records GitLab's `suggest_pipeline` callout, so
 * it stays dismissed; a failed dismissal is only logged (the suggestion hides anyway).
 */
export function SuggestPipeline({ sourceProjectPath, sourceBranch }: { sourceProjectPath: string; sourceBranch: string }) {
  const queryClient = useQueryClient();
  const dismiss = useMutation({
    ...dismissCalloutMutation(),
    onMutate: (feature) => {
      queryClient.setQueryData(calloutsQuery().queryKey, (dismissed) => new Set([...(dismissed ?? []), feature]));
    },
    onError: (error) => console.warn('Could not dismiss the pipeline suggestion', error),
  });
  const newFile = urls.newFile(sourceProjectPath, sourceBranch, '', { file_name: '.gitlab-ci.yml', commit_message: 'Add .gitlab-ci.yml' });
  return (
    <div className={styles.suggest} role="group" aria-label={t(MSG.suggestPipelineTitle)}>
      <div className={styles.suggestHeader}>
        <StatusIcon status="info" />
        <strong className={styles.bannerText}>{t(MSG.suggestPipelineTitle)}</strong>
        <IconButton icon={XIcon} size="small" variant="invisible" aria-label={t(MSG.dismiss)} onClick={() => dismiss.mutate(SUGGEST_PIPELINE_CALLOUT)} />
      </div>
      <p>
        <RichMessage
          message={t(MSG.suggestPipelineHelp)}
          slots={{
            link: (
              <Link href={PIPELINE_DOCS.quickStart} target="_blank">
                {t(MSG.suggestPipelineHelpLink)}
              </Link>
            ),
          }}
        />
      </p>
      <div>
        <LinkButton to={newFile} variant="primary">
          {t(MSG.tryPipelines)}
        </LinkButton>
      </div>
    </div>
  );
}
