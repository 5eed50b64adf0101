import { Button, Flash, Heading, Text } from '@primer/react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { FormError } from '../../components/FormError';
import styles from './Settings.module.css';

/**
 * One expandable settings section, as GitLab lays them out: a heading, a sentence, an
 * 'Expand'/'Collapse' button, and (when expanded) the section's own content.
 */
export function SettingsSection({
  title,
  description,
  defaultExpanded = false,
  children,
}: {
  title: string;
  description: string;
  defaultExpanded?: boolean;
  children: ReactNode;
}) {
  const [expanded, setExpanded] = useState(defaultExpanded);
  const id = useId();
  return (
    <section className={styles.section} aria-labelledby={`${id}-title`}>
      <div className={styles.sectionHeader}>
        <div>
          <Heading as="h2" variant="small" id={`${id}-title`}>
            {title}
          </Heading>
          <Text as="p" className={styles.sectionDescription}>
            {description}
          </Text>
        </div>
        <Button aria-expanded={expanded} aria-controls={`${id}-body`} aria-label={`${expanded ? 'Collapse' : 'Expand'} ${title}`} onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Collapse' : 'Expand'}
        </Button>
      </div>
      <div id={`${id}-body`} hidden={!expanded} className={styles.sectionBody}>
        {expanded ? children : null}
      </div>
    </section>
  );
}

/**
 * A section's form with its own 'Save changes': the success line or the API's error above the
 * fields (a new attempt replaces the last one's message), the button busy while saving.
 */
export function SettingsForm({
  label,
  onSubmit,
  saving,
  error,
  saved,
  canSave = true,
  submitLabel = 'Save changes',
  children,
}: {
  label: string;
  onSubmit: () => void;
  saving: boolean;
  error: unknown;
  saved: string | null;
  canSave?: boolean;
  submitLabel?: string;
  children: ReactNode;
}) {
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <form className={styles.form} onSubmit={submit} aria-label={label} noValidate>
      {error ? <FormError error={error} title="The settings could not be saved." /> : null}
      {saved && !error ? (
        <Flash variant="success" role="status">
          {saved}
        </Flash>
      ) : null}
      {children}
      <div>
        <Button type="submit" variant="primary" loading={saving} disabled={!canSave}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
