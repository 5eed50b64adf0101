import { Button, Dialog, Flash, FormControl, Radio, RadioGroup, Textarea, useConfirm } from '@primer/react';
import { t } from '@tributary/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api-error';
import { sessionQuery } from '../session';
import { useDraftNotes, type ReviewTarget, type ReviewVerdict } from './api';
import styles from './Review.module.css';
import { pendingCommentsText } from './review-rules';
import { useReviewActions } from './useReviewActions';

/**
 * The review bar, fixed at the bottom of the merge request page while the caller has draft
 * notes: their count, 'Discard review' (after a confirmation) and 'Submit review' with an
 * optional summary and a verdict (Comment, Approve, Request changes, as GitLab's review drawer),
 * published in one bulk_publish.
 */
export function ReviewBar({ target }: { target: ReviewTarget }) {
  const session = useQuery(sessionQuery());
  const drafts = useDraftNotes(target, !!session.data?.user);
  const actions = useReviewActions(target);
  const confirm = useConfirm();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (drafts.length === 0 && !actions.submitReview.isPending) return null;

  const discard = async () => {
    const yes = await confirm({
      title: t('Discard pending review?'),
      content: t('This will discard all of your pending comments. This cannot be undone.'),
      confirmButtonContent: t('Discard review'),
      cancelButtonContent: t('Cancel'),
      confirmButtonType: 'danger',
    });
    if (!yes) return;
    actions.discardReview.mutate(
      drafts.map((draft) => draft.id),
      { onError: (failure) => setError(errorMessage(failure)), onSuccess: () => setError(null) },
    );
  };

  return (
    <>
      <div className={styles.spacer} aria-hidden="true" />
      <div className={styles.bar} role="region" aria-label={t('Review')}>
        <div className={styles.barInner}>
          {error ? (
            <Flash variant="danger" role="alert" className={styles.barError}>
              {error}
            </Flash>
          ) : null}
          <span className={styles.count} data-testid="review-count">
            {pendingCommentsText(drafts.length)}
          </span>
          <Button variant="danger" onClick={() => void discard()} disabled={actions.discardReview.isPending || actions.submitReview.isPending}>
            {t('Discard review')}
          </Button>
          <Button variant="primary" onClick={() => setSubmitting(true)} disabled={actions.discardReview.isPending}>
            {t('Submit review')}
          </Button>
        </div>
      </div>
      {submitting ? (
        <SubmitReviewDialog
          pending={actions.submitReview.isPending}
          error={actions.submitReview.error ? errorMessage(actions.submitReview.error) : null}
          onClose={() => setSubmitting(false)}
          onSubmit={(summary, verdict) => actions.submitReview.mutate({ summary, verdict }, { onSuccess: () => setSubmitting(false) })}
        />
      ) : null}
    </>
  );
}

/** GitLab's review drawer's verdicts and what each does. */
const VERDICTS: { value: ReviewVerdict; label: string; caption: string }[] = [
  { value: 'comment', label: 'Comment', caption: 'Submit general feedback without explicit approval.' },
  { value: 'approve', label: 'Approve', caption: 'Submit feedback and approve these changes.' },
  { value: 'requested_changes', label: 'Request changes', caption: 'Submit feedback that should be addressed before merging.' },
];

function SubmitReviewDialog({ pending, error, onClose, onSubmit }: { pending: boolean; error: string | null; onClose: () => void; onSubmit: (summary: string, verdict: ReviewVerdict) => void }) {
  const [summary, setSummary] = useState('');
  const [verdict, setVerdict] = useState<ReviewVerdict>('comment');
  return (
    <Dialog
      title={t('Submit review')}
      onClose={onClose}
      width="large"
      footerButtons={[
        { buttonType: 'default', content: t('Cancel'), onClick: onClose },
        { buttonType: 'primary', content: t('Submit review'), onClick: () => onSubmit(summary, verdict), disabled: pending, loading: pending },
      ]}
    >
      {error ? (
        <Flash variant="danger" role="alert" className={styles.dialogError}>
          {error}
        </Flash>
      ) : null}
      <FormControl>
        <FormControl.Label>{t('Summary comment (optional)')}</FormControl.Label>
        <Textarea
          block
          rows={4}
          value={summary}
          autoFocus
          placeholder={t('Write a comment or drag your files here…')}
          onChange={(event) => setSummary(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !pending) {
              event.preventDefault();
              onSubmit(summary, verdict);
            }
          }}
        />
      </FormControl>
      <RadioGroup name="review-verdict" onChange={(value) => value && setVerdict(value as ReviewVerdict)} className={styles.verdicts}>
        <RadioGroup.Label visuallyHidden>{t('Review verdict')}</RadioGroup.Label>
        {VERDICTS.map((option) => (
          <FormControl key={option.value}>
            <Radio value={option.value} checked={verdict === option.value} />
            <FormControl.Label>{t(option.label)}</FormControl.Label>
            <FormControl.Caption>{t(option.caption)}</FormControl.Caption>
          </FormControl>
        ))}
      </RadioGroup>
    </Dialog>
  );
}
