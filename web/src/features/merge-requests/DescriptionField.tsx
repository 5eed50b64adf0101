import { t } from '@tributary/contracts';
import { useId } from 'react';
import { MarkdownField } from '../markdown';
import styles from './DescriptionField.module.css';

/**
 * The description: a Markdown field (markdown/MarkdownField.tsx: Write, Preview, uploads)
 * under a visible label, with a caption and the form's error for it.
 */
export function DescriptionField({ value, onChange, error, project }: { value: string; onChange: (value: string) => void; error?: string; project: number | string }) {
  const id = useId();
  return (
    <MarkdownField
      kind="description"
      value={value}
      onChange={onChange}
      project={project}
      switchLabel={t('Description mode')}
      previewLabel={t('Description preview')}
      label={
        <label htmlFor={id} className={styles.label}>
          {t('Description')}
        </label>
      }
      classes={{ root: styles.field, head: styles.head, preview: styles.preview }}
      textarea={{
        id,
        rows: 10,
        'aria-describedby': `${id}-caption`,
        validationStatus: error ? 'error' : undefined,
        placeholder: t('Describe the goal of the changes and what reviewers should be aware of.'),
      }}
    >
      <p id={`${id}-caption`} className={styles.caption}>
        {t('Supports GitLab Flavored Markdown: references such as !1 and @user, tables, task lists and :emoji:.')}
      </p>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </MarkdownField>
  );
}
