import { SegmentedControl, Textarea } from '@primer/react';
import { useId, useState } from 'react';
import { MarkdownBody } from '../markdown/MarkdownBody';
import styles from './DescriptionField.module.css';

/**
 * The description: a Markdown textarea with Write and Preview; the preview is rendered by
 * the server for `project`, so references resolve as they will on the page.
 */
export function DescriptionField({ value, onChange, error, project }: { value: string; onChange: (value: string) => void; error?: string; project: number | string }) {
  const [preview, setPreview] = useState(false);
  const id = useId();
  return (
    <div className={styles.field}>
      <div className={styles.head}>
        <label htmlFor={id} className={styles.label}>
          Description
        </label>
        <SegmentedControl aria-label="Description mode" size="small">
          <SegmentedControl.Button selected={!preview} onClick={() => setPreview(false)}>
            Write
          </SegmentedControl.Button>
          <SegmentedControl.Button selected={preview} onClick={() => setPreview(true)}>
            Preview
          </SegmentedControl.Button>
        </SegmentedControl>
      </div>
      {preview ? (
        <div className={styles.preview} aria-label="Description preview" role="region">
          {value.trim() ? <MarkdownBody text={value} project={project} /> : <span className="fgMuted">Nothing to preview.</span>}
        </div>
      ) : (
        <Textarea
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          rows={10}
          block
          resize="vertical"
          aria-describedby={`${id}-caption`}
          validationStatus={error ? 'error' : undefined}
          placeholder="Describe the goal of the changes and what reviewers should be aware of."
        />
      )}
      <p id={`${id}-caption`} className={styles.caption}>
        Supports GitLab Flavored Markdown: references such as !1 and @user, tables, task lists and :emoji:.
      </p>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
