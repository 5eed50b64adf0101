import { Button, Dialog, Flash, FormControl, Radio, RadioGroup, Textarea } from '@primer/react';
import { ABUSE_CATEGORIES, ABUSE_CATEGORY_LABELS, t, type AbuseCategory } from '@tributary/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormError } from '../../components/FormError';
import { reportAbuseMutation } from './api';
import styles from './Abuse.module.css';

/**
 * "Report abuse to administrator" (abuse category drawer): first the required
 * category radio ("Why are you reporting this user?", Next), then a comment, posted with the
 * reported user's id and the URL it was reported from.
 */
export function AbuseReportDrawer({ userId, reportedFromUrl, onClose }: { userId: number; reportedFromUrl: string; onClose: () => void }) {
  const [category, setCategory] = useState<AbuseCategory | null>(null);
  const [step, setStep] = useState<'category' | 'comment'>('category');
  const [comment, setComment] = useState('');
  const [missing, setMissing] = useState(false);
  const report = useMutation(reportAbuseMutation());

  const next = (event: FormEvent) => {
    event.preventDefault();
    if (!category) {
      setMissing(true);
      return;
    }
    setStep('comment');
  };
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!category || comment.trim() === '') return;
    report.mutate({ user_id: userId, abuse_report: { category, message: comment.trim(), reported_from_url: reportedFromUrl } });
  };

  return (
    <Dialog title={t('Report abuse to administrator')} onClose={onClose} position={{ narrow: 'bottom', regular: 'right' }} width="medium">
      {report.isSuccess ? (
        <div className={styles.body}>
          <Flash variant="success" role="status">
            {t('Thank you for your report. An administrator will look into it shortly.')}
          </Flash>
          <div className={styles.actions}>
            <Button onClick={onClose}>{t('Close')}</Button>
          </div>
        </div>
      ) : step === 'category' ? (
        <form className={styles.body} onSubmit={next} aria-label={t('Report abuse to administrator')}>
          <RadioGroup name="abuse_report[category]" required onChange={(value) => (setCategory(value as AbuseCategory), setMissing(false))}>
            <RadioGroup.Label>{t('Why are you reporting this user?')}</RadioGroup.Label>
            {ABUSE_CATEGORIES.map((value) => (
              <FormControl key={value}>
                <Radio value={value} checked={category === value} required onChange={() => undefined} />
                <FormControl.Label>{t(ABUSE_CATEGORY_LABELS[value])}</FormControl.Label>
              </FormControl>
            ))}
            {missing ? <RadioGroup.Validation variant="error">{t('Choose a reason.')}</RadioGroup.Validation> : null}
          </RadioGroup>
          <div className={styles.actions}>
            <Button type="button" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button type="submit" variant="primary">
              {t('Next')}
            </Button>
          </div>
        </form>
      ) : (
        <form className={styles.body} onSubmit={send}>
          <FormError error={report.error} title={t('The report could not be sent.')} />
          <p className="fgMuted">{t(ABUSE_CATEGORY_LABELS[category!])}</p>
          <FormControl required>
            <FormControl.Label>{t('Comment')}</FormControl.Label>
            <Textarea block rows={5} autoFocus value={comment} onChange={(event) => setComment(event.target.value)} maxLength={5000} />
            <FormControl.Caption>{t('Explain the problem. If appropriate, provide a link to the relevant issue or comment.')}</FormControl.Caption>
          </FormControl>
          <div className={styles.actions}>
            <Button type="button" onClick={() => setStep('category')}>
              {t('Back')}
            </Button>
            <Button type="submit" variant="primary" loading={report.isPending} disabled={comment.trim() === ''}>
              {t('Send report')}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
