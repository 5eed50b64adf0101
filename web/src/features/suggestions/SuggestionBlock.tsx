import { Button, Flash, Label, Tooltip } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../../lib/api-error';
import { notesApi, notesKeys, type NoteTarget } from '../notes/api';
import { batchKey, batchQuery, suggestionsApi, type SuggestionEntity } from './api';
import { ApplySuggestion } from './ApplySuggestion';
import { toggleBatch, type BatchEntry } from './suggestion-diff';
import { SuggestionLines } from './SuggestionLines';
import styles from './Suggestions.module.css';

/**
 * Why a button is unavailable, as a tooltip. The button stays focusable (Primer's `inactive`,
 * aria-disabled) because a disabled one takes no pointer or focus events to show it.
 */
function WithReason({ reason, children }: { reason: string | null; children: ReactElement }) {
  if (!reason) return children;
  return (
    <Tooltip text={reason} direction="n">
      {children}
    </Tooltip>
  );
}

/**
 * One suggested change in a note (GitLab's suggestion diff): the current lines in red, the
 * proposed ones in green, and for those who may push to the source branch, Apply (with an
 * optional commit message) and the batch. After applying, the thread is resolved, as GitLab does.
 */
export function SuggestionBlock({ suggestion, target, discussionId }: { suggestion: SuggestionEntity; target: NoteTarget; discussionId: string }) {
  const client = useQueryClient();
  const batch = useQuery(batchQuery(target.projectId, target.iid)).data;
  const [error, setError] = useState<string | null>(null);
  const inBatch = batch.some((entry) => entry.suggestionId === suggestion.id);
  const setBatch = (next: BatchEntry[]) => client.setQueryData(batchKey(target.projectId, target.iid), next);

  const apply = useMutation({
    mutationFn: async ({ entries, message }: { entries: BatchEntry[]; message?: string }) => {
      if (entries.length === 1) await suggestionsApi.apply(entries[0]!.suggestionId, message);
      else await suggestionsApi.applyBatch(entries.map((entry) => entry.suggestionId), message);
      // GitLab resolves the threads of applied suggestions; a refusal to resolve is not a failure to apply
      await Promise.all([...new Set(entries.map((entry) => entry.discussionId))].map((id) => notesApi.resolve(target, id, true).catch(() => undefined)));
    },
    onSuccess: () => {
      setError(null);
      setBatch([]);
    },
    onError: (failure) => setError(errorMessage(failure)),
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: notesKeys.discussions(target.projectId, target.iid) });
      // the new commit changes the diffs, commits and the widget
      void client.invalidateQueries({ queryKey: ['merge-requests', 'detail', target.projectId, target.iid] });
    },
  });

  const canApply = suggestion.current_user.can_apply && !suggestion.applied;
  const reason = suggestion.appliable ? null : suggestion.inapplicable_reason;
  const own: BatchEntry = { suggestionId: suggestion.id, discussionId };
  return (
    <div className={styles.block} data-suggestion-id={suggestion.id}>
      <div className={styles.header}>
        <span className={styles.title}>{t('Suggested change')}</span>
        {suggestion.applied ? <Label variant="success">{t('Applied')}</Label> : null}
        {canApply && batch.length > 0 && inBatch ? (
          <>
            <Button size="small" onClick={() => setBatch(toggleBatch(batch, own))} disabled={apply.isPending}>
              {t('Remove from batch')}
            </Button>
            <Button size="small" variant="primary" onClick={() => apply.mutate({ entries: batch })} disabled={apply.isPending}>
              {apply.isPending ? t('Applying suggestions...') : t('Apply %{count} suggestions', { count: batch.length })}
            </Button>
          </>
        ) : null}
        {canApply && !inBatch ? (
          <>
            <WithReason reason={reason}>
              <Button size="small" inactive={!suggestion.appliable} aria-disabled={!suggestion.appliable || undefined} onClick={() => suggestion.appliable && setBatch(toggleBatch(batch, own))} disabled={apply.isPending}>
                {t('Add suggestion to batch')}
              </Button>
            </WithReason>
            <ApplySuggestion reason={reason} disabled={batch.length > 0} pending={apply.isPending} onApply={(message) => apply.mutate({ entries: [own], message })} />
          </>
        ) : null}
      </div>
      {error ? (
        <Flash variant="danger" role="alert" className={styles.error}>
          {error}
        </Flash>
      ) : null}
      <SuggestionLines suggestion={suggestion} />
    </div>
  );
}
