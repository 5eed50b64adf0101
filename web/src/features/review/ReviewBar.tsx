import { Button, Dialog, Flash, FormControl, Radio, RadioGroup, Textarea, TextInput, useConfirm } from '@primer/react';
import { t } from '@tributary/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api-error';
import { sessionQuery } from '../session';
import { approvalAbilityQuery, useDraftNotes, type ReviewTarget, type ReviewVerdict } from './api';
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
          target={target}
          pending={actions.submitReview.isPending}
          failure={actions.submitReview.error}
          onClose={() => {
            actions.submitReview.reset();
            setSubmitting(false);
          }}
          onSubmit={(summary, verdict, approvalPassword) => actions.submitReview.mutate({ summary, verdict, approvalPassword }, { onSuccess: () => setSubmitting(false) })}
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

/**
 * The review drawer. Approve is offered only to those who may approve (GitLab disables it
 * otherwise); on a project that requires the user's password to approve, choosing Approve asks
 * for it, and a wrong one (the server's 401, before anything is published) says 'Approval
 * password is invalid.' beside the field.
 */
function SubmitReviewDialog({
  target,
  pending,
  failure,
  onClose,
  onSubmit,
}: {
  target: ReviewTarget;
  pending: boolean;
  failure: Error | null;
  onClose: () => void;
  onSubmit: (summary: string, verdict: ReviewVerdict, approvalPassword?: string) => void;
}) {
  const [summary, setSummary] = useState('');
  const [verdict, setVerdict] = useState<ReviewVerdict>('comment');
  const [password, setPassword] = useState('');
  const ability = useQuery(approvalAbilityQuery(target.projectId, target.iid));
  const canApprove = ability.data?.user_can_approve === true;
  const asksPassword = verdict === 'approve' && canApprove && ability.data?.require_password_to_approve === true;
  const passwordInvalid = asksPassword && failure instanceof ApiError && failure.status === 401;
  const error = failure && !passwordInvalid ? errorMessage(failure) : null;
  const blocked = pending || (asksPassword && password === '');
  const submit = () => {
    if (!blocked) onSubmit(summary, verdict, asksPassword ? password : undefined);
  };
  return (
    <Dialog
      title={t('Submit review')}
      onClose={onClose}
      width="large"
      footerButtons={[
        { buttonType: 'default', content: t('Cancel'), onClick: onClose },
        { buttonType: 'primary', content: t('Submit review'), onClick: submit, disabled: blocked, loading: pending },
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
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              submit();
            }
          }}
        />
      </FormControl>
      <RadioGroup name="review-verdict" onChange={(value) => value && setVerdict(value as ReviewVerdict)} className={styles.verdicts}>
        <RadioGroup.Label visuallyHidden>{t('Review verdict')}</RadioGroup.Label>
        {VERDICTS.map((option) => (
          <FormControl key={option.value} disabled={option.value === 'approve' && !canApprove}>
            <Radio value={option.value} checked={verdict === option.value} />
            <FormControl.Label>{t(option.label)}</FormControl.Label>
            <FormControl.Caption>{t(option.caption)}</FormControl.Caption>
          </FormControl>
        ))}
      </RadioGroup>
      {asksPassword ? (
        <FormControl required className={styles.verdicts}>
          <FormControl.Label>{t('Your password')}</FormControl.Label>
          <TextInput
            type="password"
            autoComplete="current-password"
            block
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                submit();
              }
            }}
            validationStatus={passwordInvalid ? 'error' : undefined}
          />
          {passwordInvalid ? <FormControl.Validation variant="error">{t('Approval password is invalid.')}</FormControl.Validation> : null}
        </FormControl>
      ) : null}
    </Dialog>
  );
}
